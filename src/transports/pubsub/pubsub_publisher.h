// Publishing a batch to Pub/Sub (docket/spi/transport.h, do_publish_batch): one :publish
// request per topic of the batch, split only where Pub/Sub's limits on one request
// (1000 messages, 10 MB) require, with a result per message from the messageIds
// answered.
//
//   a message that cannot be encoded (over max_message_size or an attribute limit, a
//     destination with no valid topic name): kRefused, before anything is sent
//   a request answered with messageIds: kConfirmed for each of its messages
//   a topic that does not exist (404), or has no subscription: kUnroutable (Pub/Sub
//     drops what reaches a topic without subscriptions: docket does not send it)
//   PERMISSION_DENIED (403): kRefused, naming the topic and the role to grant
//   anything else (the request failed, no answer): kRetryable for each of its messages
//
// Ordering keys: a :publish request is applied whole or not at all, so messages of one
// key go together in it in batch order. A message is never sent after an earlier one of
// its key that was not confirmed (it is answered kRetryable, unsent), nor in a request
// before that earlier one's request was answered. Pub/Sub's client libraries pause a key
// after a failed publish until resumePublish(); docket needs no pause: the relay
// publishes a key's next message only after the failed one is confirmed.
//
// Thread-safety: publish() may be called from many threads at once.
#ifndef DOCKET_TRANSPORTS_PUBSUB_PUBSUB_PUBLISHER_H_
#define DOCKET_TRANSPORTS_PUBSUB_PUBSUB_PUBLISHER_H_

#include <memory>
#include <span>
#include <vector>

#include "docket/transports/publish_result.h"
#include "docket/transports/transport_message.h"
#include "transports/pubsub/pubsub_topology.h"

namespace docket::pubsub::detail {

class Publisher {
 public:
  explicit Publisher(std::shared_ptr<Topology> topology);

  std::vector<PublishResult> publish(std::span<const TransportMessage> batch);

  Topology& topology() const noexcept { return *topology_; }

 private:
  std::shared_ptr<Topology> topology_;
};

}  // namespace docket::pubsub::detail

#endif  // DOCKET_TRANSPORTS_PUBSUB_PUBSUB_PUBLISHER_H_
