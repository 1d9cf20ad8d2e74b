// The Google Cloud Pub/Sub transport (docket/transports/transport.h,
// docket/spi/transport.h), over Pub/Sub's REST API:
//
//   #include "docket/pubsub/transport.h"
//   docket::pubsub::PubSubTransport transport("pubsub://127.0.0.1:8085?project=demo");
//
// or, naming no broker in the code, docket::open_transport(url)
// (docket/transports/open_transport.h). The URL's form and options: docs/pubsub.md.
//
// A destination is a topic (topic_prefix + the destination, bytes outside Pub/Sub's
// name alphabet written %XX); a consumer group of a destination is a subscription
// "<topic>-<group>" (group "default" when none is given), created with message ordering
// and a dead-letter policy by subscribe() or declare_group(). As on any Pub/Sub topic, a
// group receives only what was published after its subscription exists: declare the
// groups before publishing. A publish to a topic that does not exist or has no
// subscription is kUnroutable, never sent to be dropped.
//
// Every message is published in the CloudEvents binary mode of Pub/Sub's binding
// (attributes "ce-..."), the payload as data, docket's ordering key as Pub/Sub's;
// messages over the URL's max_message_size are kRefused before sending. The
// dead-letter destination of D is "<D>.dead-letter".
//
// Thread-safety: publish_batch() and subscribe() from any number of threads (one HTTP
// client, its connections pooled). A subscription may outlive the transport object.
#ifndef DOCKET_PUBSUB_TRANSPORT_H_
#define DOCKET_PUBSUB_TRANSPORT_H_

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "docket/transports/transport.h"

namespace docket::pubsub {

class PubSubTransport final : public Transport {
 public:
  // Parses `url`. Throws ConfigurationError naming what is wrong when it does not parse,
  // or when pubsub://googleapis has no access token in DOCKET_PUBSUB_ACCESS_TOKEN.
  // Connects on first use, not here.
  explicit PubSubTransport(std::string_view url);
  ~PubSubTransport() override;

  // Makes sure the topic of `destination` and the subscription of `group` on it exist
  // (created, or checked with create=false), so that what is published to
  // `destination` from now on waits there for the group. Idempotent. Throws
  // ConfigurationError for names Pub/Sub refuses or what is missing and may not be
  // created, TransportError when the server cannot be reached.
  void declare_group(std::string_view destination, std::string_view group);

  // The topic id of `destination` and the subscription id of `group` on it.
  std::string topic_name(std::string_view destination) const;
  std::string subscription_name(std::string_view destination, std::string_view group) const;

  // "Pub/Sub emulator at pubsub://..." or "Cloud Pub/Sub pubsub://googleapis?...".
  std::string describe() const override;

 protected:
  std::vector<PublishResult> do_publish_batch(std::span<const TransportMessage> batch) override;
  std::unique_ptr<spi::SubscriptionChannel> do_subscribe(
      const SubscriptionOptions& options) override;

 private:
  struct State;  // the client, the topology cache and the delivery counts
  std::unique_ptr<State> state_;
};

}  // namespace docket::pubsub

#endif  // DOCKET_PUBSUB_TRANSPORT_H_
