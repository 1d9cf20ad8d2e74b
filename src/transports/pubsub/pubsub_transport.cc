#include <utility>

#include "docket/core/error.h"
#include "docket/pubsub/transport.h"
#include "transports/pubsub/pubsub_client.h"
#include "transports/pubsub/pubsub_names.h"
#include "transports/pubsub/pubsub_publisher.h"
#include "transports/pubsub/pubsub_subscription_channel.h"

namespace docket::pubsub {

struct PubSubTransport::State {
  std::shared_ptr<detail::Publisher> publisher;
  std::shared_ptr<detail::DeliveryCounts> counts;

  const detail::Client& client() const { return publisher->topology().client(); }
};

namespace {

std::shared_ptr<detail::Publisher> make_publisher(std::string_view url) {
  auto client = std::make_shared<const detail::Client>(detail::parse_pubsub_url(url));
  return std::make_shared<detail::Publisher>(std::make_shared<detail::Topology>(std::move(client)));
}

}  // namespace

PubSubTransport::PubSubTransport(std::string_view url)
    : state_(std::make_unique<State>(
          State{make_publisher(url), std::make_shared<detail::DeliveryCounts>()})) {}

PubSubTransport::~PubSubTransport() = default;

std::string PubSubTransport::describe() const {
  return state_->client().describe();
}

std::string PubSubTransport::topic_name(std::string_view destination) const {
  return detail::topic_id(state_->client().url().topic_prefix, destination);
}

std::string PubSubTransport::subscription_name(std::string_view destination,
                                               std::string_view group) const {
  return detail::subscription_id(topic_name(destination), group);
}

void PubSubTransport::declare_group(std::string_view destination, std::string_view group) {
  const std::string subscription = subscription_name(destination, group);
  try {
    state_->publisher->topology().ensure_subscription(
        subscription, topic_name(destination), topic_name(dead_letter_destination(destination)));
  } catch (const ConfigurationError&) {
    throw;
  } catch (const InfrastructureError& error) {
    throw TransportError(describe() + ": declaring subscription '" + subscription +
                         "' of destination '" + std::string(destination) +
                         "' failed: " + error.what());
  }
}

std::vector<PublishResult> PubSubTransport::do_publish_batch(
    std::span<const TransportMessage> batch) {
  return state_->publisher->publish(batch);
}

std::unique_ptr<spi::SubscriptionChannel> PubSubTransport::do_subscribe(
    const SubscriptionOptions& options) {
  if (options.destination.empty()) {
    throw ConfigurationError(describe() +
                             ": a subscription without a destination (every destination) is not "
                             "supported on Pub/Sub; name one (SubscriptionOptions::destination)");
  }
  declare_group(options.destination, options.group);
  return std::make_unique<detail::SubscriptionChannel>(
      state_->publisher, state_->counts,
      detail::SubscriptionRoute{
          .destination = options.destination,
          .subscription = subscription_name(options.destination, options.group),
          .dead_letter_destination = dead_letter_destination(options.destination),
          .prefetch = options.prefetch});
}

}  // namespace docket::pubsub
