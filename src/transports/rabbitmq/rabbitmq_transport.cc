#include <limits>
#include <utility>

#include "docket/core/error.h"
#include "docket/rabbitmq/transport.h"
#include "transports/keyed_rounds.h"
#include "transports/rabbitmq/rabbitmq_publishing_connection.h"
#include "transports/rabbitmq/rabbitmq_subscription_channel.h"
#include "transports/rabbitmq/rabbitmq_wire.h"

namespace docket::rabbitmq {

struct RabbitMqTransport::State {
  std::shared_ptr<detail::PublishingConnection> publishing;
};

namespace {

constexpr std::string_view kDefaultGroup = "default";

detail::BrokerUrl transport_url(std::string_view text) {
  detail::BrokerUrl url = detail::parse_broker_url(text);
  if (url.exchange.empty()) {
    throw ConfigurationError("RabbitMQ transport " + detail::printable(url) +
                             ": the URL names no exchange; add ?exchange=<name>, the topic "
                             "exchange every message is published to");
  }
  return url;
}

docket::PublishResult to_result(const detail::PublishResult& result,
                                const TransportMessage& message, const std::string& broker) {
  const std::string what = "RabbitMQ broker " + broker + ": message '" +
                           message.envelope.message_id + "' to destination '" +
                           message.destination + "' ";
  switch (result.status) {
    case detail::PublishStatus::confirmed:
      return docket::PublishResult::confirmed();
    case detail::PublishStatus::nacked:
      return docket::PublishResult::failed(
          docket::PublishStatus::kNacked,
          what + "was negatively acknowledged (" + result.detail + "); it is published again");
    case detail::PublishStatus::returned:
      return docket::PublishResult::failed(
          docket::PublishStatus::kUnroutable,
          what + "is unroutable: " + result.detail + "; no queue is bound for routing key '" +
              message.destination +
              "': subscribe a consumer group to it (or RabbitMqTransport::declare_group)");
    case detail::PublishStatus::refused:
      return docket::PublishResult::failed(docket::PublishStatus::kRefused,
                                           what + "was refused for good: " + result.detail);
    case detail::PublishStatus::failed:
    case detail::PublishStatus::connection_lost:
      break;
  }
  return docket::PublishResult::failed(docket::PublishStatus::kRetryable,
                                       what + "was not confirmed (" +
                                           detail::to_string(result.status) + ": " + result.detail +
                                           "); it is published again");
}

void require_name(std::string_view what, std::string_view name, const std::string& broker) {
  if (name.empty() || name.find_first_of("*#") != std::string_view::npos) {
    throw ConfigurationError("RabbitMQ transport " + broker + ": the " + std::string(what) + " '" +
                             std::string(name) +
                             "' is empty or holds a topic wildcard ('*', '#'); name one "
                             "exactly (it is a routing key)");
  }
}

}  // namespace

RabbitMqTransport::RabbitMqTransport(std::string_view url)
    : state_(std::make_unique<State>(
          State{std::make_shared<detail::PublishingConnection>(transport_url(url))})) {}

RabbitMqTransport::~RabbitMqTransport() = default;

const std::string& RabbitMqTransport::exchange() const noexcept {
  return state_->publishing->url().exchange;
}

std::string RabbitMqTransport::describe() const {
  return "RabbitMQ broker " + state_->publishing->broker();
}

std::string RabbitMqTransport::queue_name(std::string_view destination,
                                          std::string_view group) const {
  return exchange() + "." + std::string(destination) + "." +
         std::string(group.empty() ? kDefaultGroup : group);
}

void RabbitMqTransport::declare_group(std::string_view destination, std::string_view group) {
  require_name("destination", destination, state_->publishing->broker());
  if (!group.empty())
    require_name("consumer group", group, state_->publishing->broker());
  state_->publishing->declare({.exchange = exchange(),
                               .queue = queue_name(destination, group),
                               .routing_key = std::string(destination),
                               .dead_letter_exchange = {},
                               .dead_letter_queue = {},
                               .quorum_queue = false});  // why: docs/rabbitmq.md, queue type
}

std::vector<PublishResult> RabbitMqTransport::do_publish_batch(
    std::span<const TransportMessage> batch) {
  transports::KeyedRounds rounds(batch, describe());
  std::vector<detail::OutgoingMessage> encoded(batch.size());
  for (std::size_t i = 0; i < batch.size(); ++i) {
    try {
      encoded[i] = detail::to_outgoing(batch[i], exchange());
    } catch (const InvalidInputError& error) {
      rounds.settle(
          i, PublishResult::failed(PublishStatus::kRefused,
                                   describe() + ": message '" + batch[i].envelope.message_id +
                                       "' cannot be published: " + error.what()));
    }
  }
  // Rounds (keyed_rounds.h): a message is sent only once every earlier one of its key
  // was confirmed. A batch of distinct keys takes one round trip.
  for (std::vector<std::size_t> round = rounds.next(); !round.empty(); round = rounds.next()) {
    std::vector<detail::OutgoingMessage> sending;
    sending.reserve(round.size());
    for (std::size_t i : round)
      sending.push_back(std::move(encoded[i]));
    std::vector<detail::PublishResult> sent;
    try {
      sent = state_->publishing->publish(sending);
    } catch (const detail::BrokerError& error) {
      // The error names the broker and what to do; the result adds which message.
      rounds.settle_rest([&](std::size_t i) {
        return PublishResult::failed(
            PublishStatus::kRetryable,
            "message '" + batch[i].envelope.message_id + "' to destination '" +
                batch[i].destination +
                "' was not published (it is published again): " + error.what());
      });
      break;
    }
    for (std::size_t n = 0; n < round.size(); ++n)
      rounds.settle(round[n], to_result(sent[n], batch[round[n]], state_->publishing->broker()));
  }
  return std::move(rounds).results();
}

std::unique_ptr<spi::SubscriptionChannel> RabbitMqTransport::do_subscribe(
    const SubscriptionOptions& options) {
  if (options.destination.empty()) {
    throw ConfigurationError(describe() +
                             ": a subscription without a destination (every destination) is not "
                             "supported on RabbitMQ; name one (SubscriptionOptions::destination)");
  }
  if (options.prefetch > std::numeric_limits<std::uint16_t>::max()) {
    throw ConfigurationError(describe() + ": a prefetch of " + std::to_string(options.prefetch) +
                             " is over AMQP's 65535; give 1 to 65535 "
                             "(SubscriptionOptions::prefetch)");
  }
  try {
    declare_group(options.destination, options.group);
  } catch (const detail::BrokerError& error) {
    throw TransportError(describe() + ": declaring the queue of group '" + options.group +
                         "' for destination '" + options.destination + "' failed: " + error.what());
  }
  return std::make_unique<detail::SubscriptionChannel>(
      state_->publishing,
      detail::SubscriptionRoute{
          .destination = options.destination,
          .queue = queue_name(options.destination, options.group),
          .dead_letter_destination = dead_letter_destination(options.destination),
          .prefetch = static_cast<std::uint16_t>(options.prefetch)});
}

}  // namespace docket::rabbitmq
