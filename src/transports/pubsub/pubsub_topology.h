// Topics and subscriptions: made sure of before use, created when missing (the URL's
// create=true, the default) or only checked (create=false, for a user who may publish
// and subscribe but not administer).
//
// A subscription docket creates has:
//   ackDeadlineSeconds     the URL's ack_deadline
//   enableMessageOrdering  true, so that one ordering key's messages are delivered in
//                          their publish order (messages without a key are unaffected)
//   deadLetterPolicy       the topic of the destination's dead-letter destination, with
//                          Pub/Sub's largest maxDeliveryAttempts (100): docket's consumer
//                          runner dead-letters long before, with the last error; the
//                          policy makes Pub/Sub count deliveries (deliveryAttempt) and is
//                          the backstop for a consumer that is not docket's
// A subscription that exists already is used as it is; whether it has a dead-letter
// policy decides where delivery counts come from (pubsub_subscription_channel.h).
//
// A topic is routable once a subscription is attached to it: Pub/Sub accepts and drops
// what is published to a topic without one, so routable() asks (once per topic while
// the answer is yes) and the publisher answers kUnroutable instead of losing a message.
//
// Thread-safety: every method may be called from many threads at once.
#ifndef DOCKET_TRANSPORTS_PUBSUB_PUBSUB_TOPOLOGY_H_
#define DOCKET_TRANSPORTS_PUBSUB_PUBSUB_TOPOLOGY_H_

#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "transports/pubsub/pubsub_client.h"

namespace docket::pubsub::detail {

enum class Routability { kRoutable, kNoTopic, kNoSubscription };

class Topology {
 public:
  explicit Topology(std::shared_ptr<const Client> client);

  // Throws ConfigurationError when the topic is missing and may not be created (or the
  // server refuses it for good), InfrastructureError when the server cannot be reached.
  void ensure_topic(const std::string& topic);

  // Makes sure subscription `subscription` of `topic` exists (creating `topic` and
  // `dead_letter_topic` first when creating). Returns whether it has a dead-letter
  // policy. Throws as ensure_topic does; ConfigurationError also when the subscription
  // exists on another topic.
  bool ensure_subscription(const std::string& subscription, const std::string& topic,
                           const std::string& dead_letter_topic);

  // Whether a publish to `topic` would reach a subscription. Throws InfrastructureError
  // when the server cannot be reached.
  Routability routable(const std::string& topic);

  std::string topic_path(const std::string& topic) const;
  std::string subscription_path(const std::string& subscription) const;
  const Client& client() const noexcept { return *client_; }

 private:
  std::shared_ptr<const Client> client_;
  std::mutex mutex_;
  std::set<std::string> known_topics_;     // exist
  std::set<std::string> routable_topics_;  // have had a subscription
};

}  // namespace docket::pubsub::detail

#endif  // DOCKET_TRANSPORTS_PUBSUB_PUBSUB_TOPOLOGY_H_
