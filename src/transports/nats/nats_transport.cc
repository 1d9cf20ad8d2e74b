#include <cctype>
#include <chrono>
#include <cstdint>
#include <limits>
#include <mutex>
#include <span>
#include <thread>
#include <utility>

#include "docket/core/error.h"
#include "docket/nats/transport.h"
#include "transports/keyed_rounds.h"
#include "transports/nats/nats_publisher.h"
#include "transports/nats/nats_subscription_channel.h"
#include "transports/nats/nats_topology.h"
#include "transports/nats/nats_wire.h"

namespace docket::nats {

struct NatsTransport::State {
  explicit State(detail::ServerUrl server) : url(std::move(server)) {}
  detail::ServerUrl url;
  std::mutex mutex;                              // one batch at a time on the publishing connection
  std::unique_ptr<detail::Publisher> publisher;  // null: (re)connect on the next batch
  // Until then, "no responders" may mean a stream still settling (publish_round).
  std::chrono::steady_clock::time_point stream_settles_by{};
};

namespace {

constexpr std::string_view kDefaultGroup = "default";
// The server lists a stream a moment before it listens on the stream's subjects: a
// client that finds a stream another client is declaring, or a server restarting, can
// be answered "no responders" for it. For this long after the publishing connection
// found its stream, such a message is published again after a pause, doubling from the
// first; after it, "no responders" means what it says (no stream takes the subject).
constexpr std::chrono::milliseconds kStreamSettling{2000};
constexpr std::chrono::milliseconds kFirstSettlingPause{20};
constexpr std::size_t kMaxNamePart = 100;

detail::ServerUrl transport_url(std::string_view text) {
  detail::ServerUrl url = detail::parse_server_url(text);
  if (url.stream.empty()) {
    throw ConfigurationError("NATS JetStream transport " + detail::printable(url) +
                             ": the URL names no stream; add ?stream=<name> (and "
                             "&subject=<subjects> to declare it), the stream every message is "
                             "stored in");
  }
  return url;
}

std::string name_part(std::string_view text) {
  std::string part;
  for (const char c : text.substr(0, kMaxNamePart))
    part.push_back(std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' ? c : '_');
  return part;
}

std::string hex_hash(std::string_view a, std::string_view b) {
  std::uint64_t hash = 14695981039346656037ULL;  // FNV-1a, 64 bits
  const auto add = [&](std::string_view text) {
    for (const char c : text) {
      hash ^= static_cast<unsigned char>(c);
      hash *= 1099511628211ULL;
    }
  };
  add(a);
  add(std::string_view("\0", 1));
  add(b);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (int shift = 60; shift >= 32; shift -= 4)
    out.push_back(kHex[(hash >> shift) & 15]);
  return out;
}

PublishResult to_result(const detail::PublishAnswer& answer, const TransportMessage& message,
                        const detail::ServerUrl& url) {
  const std::string what = "NATS JetStream " + detail::printable(url) + ": message '" +
                           message.envelope.message_id + "' to destination '" +
                           message.destination + "' ";
  switch (answer.outcome) {
    case detail::PublishOutcome::confirmed:
      return PublishResult::confirmed();
    case detail::PublishOutcome::no_stream:
      return PublishResult::failed(
          PublishStatus::kUnroutable,
          what + "is unroutable (" + answer.detail + "): stream '" + url.stream +
              "' does not take the subject '" + message.destination +
              "' (or another stream does); add it to the stream's subjects (the URL's subject "
              "option declares them) or publish to a destination the stream takes");
    case detail::PublishOutcome::too_large:
      return PublishResult::failed(PublishStatus::kRefused,
                                   what +
                                       "was refused for good: it is larger than the server's "
                                       "max_payload or the stream's max_msg_size (" +
                                       answer.detail + ")");
    case detail::PublishOutcome::rejected:
      return PublishResult::failed(PublishStatus::kNacked,
                                   what + "was refused by the stream this time (" + answer.detail +
                                       "); it is published again");
    case detail::PublishOutcome::lost:
      break;
  }
  return PublishResult::failed(
      PublishStatus::kRetryable,
      what + "was not acknowledged (" + answer.detail + "); it is published again");
}

// Publishes one round (`sending`, encoded from batch[round[n]]), publishing again what
// "no responders" answered while the stream may still be settling (kStreamSettling).
std::vector<detail::PublishAnswer> publish_round(detail::Publisher& publisher,
                                                 const detail::ServerUrl& url,
                                                 std::chrono::steady_clock::time_point settles_by,
                                                 std::span<const TransportMessage> batch,
                                                 std::span<const std::size_t> round,
                                                 std::vector<detail::MsgPtr> sending) {
  std::vector<detail::PublishAnswer> answers = publisher.publish(std::move(sending));
  for (std::chrono::milliseconds pause = kFirstSettlingPause;; pause *= 2) {
    std::vector<std::size_t> again;  // positions in `round`
    for (std::size_t n = 0; n < answers.size(); ++n) {
      if (answers[n].outcome == detail::PublishOutcome::no_stream)
        again.push_back(n);
    }
    if (again.empty() || std::chrono::steady_clock::now() + pause > settles_by)
      return answers;
    std::this_thread::sleep_for(pause);
    std::vector<detail::MsgPtr> resending;
    resending.reserve(again.size());
    for (std::size_t n : again)  // encoded before: it encodes again
      resending.push_back(detail::to_nats_message(batch[round[n]], url.stream));
    std::vector<detail::PublishAnswer> reanswers = publisher.publish(std::move(resending));
    for (std::size_t k = 0; k < again.size(); ++k)
      answers[again[k]] = std::move(reanswers[k]);
  }
}

}  // namespace

NatsTransport::NatsTransport(std::string_view url)
    : state_(std::make_unique<State>(transport_url(url))) {}

NatsTransport::~NatsTransport() = default;

const std::string& NatsTransport::stream() const noexcept {
  return state_->url.stream;
}

std::string NatsTransport::describe() const {
  return "NATS JetStream " + detail::printable(state_->url);
}

std::string NatsTransport::consumer_name(std::string_view destination,
                                         std::string_view group) const {
  const std::string_view named = group.empty() ? kDefaultGroup : group;
  return name_part(named) + "__" + name_part(destination) + "__" + hex_hash(destination, named);
}

void NatsTransport::declare_group(std::string_view destination, std::string_view group) {
  if (!detail::is_publish_subject(destination)) {
    throw ConfigurationError(describe() + ": the destination '" + std::string(destination) +
                             "' is not a NATS subject without wildcards; name one exactly");
  }
  try {
    const detail::Connection connection(state_->url);
    detail::ensure_stream(connection);
    detail::ensure_consumer(connection, {.name = consumer_name(destination, group),
                                         .filter_subject = std::string(destination)});
  } catch (const detail::NatsError& error) {
    throw TransportError(describe() + ": declaring the consumer of group '" + std::string(group) +
                         "' for destination '" + std::string(destination) +
                         "' failed: " + error.what());
  }
}

std::vector<PublishResult> NatsTransport::do_publish_batch(
    std::span<const TransportMessage> batch) {
  transports::KeyedRounds rounds(batch, describe());
  std::vector<detail::MsgPtr> encoded(batch.size());
  for (std::size_t i = 0; i < batch.size(); ++i) {
    try {
      encoded[i] = detail::to_nats_message(batch[i], state_->url.stream);
    } catch (const InvalidInputError& error) {
      rounds.settle(
          i, PublishResult::failed(PublishStatus::kRefused,
                                   describe() + ": message '" + batch[i].envelope.message_id +
                                       "' cannot be published: " + error.what()));
    }
  }
  const std::lock_guard lock(state_->mutex);
  if (!state_->publisher) {
    try {
      auto publisher = std::make_unique<detail::Publisher>(state_->url);
      detail::ensure_stream(publisher->connection());
      state_->publisher = std::move(publisher);
      state_->stream_settles_by = std::chrono::steady_clock::now() + kStreamSettling;
    } catch (const detail::NatsError& error) {
      rounds.settle_rest([&](std::size_t i) {
        return PublishResult::failed(
            PublishStatus::kRetryable,
            "message '" + batch[i].envelope.message_id + "' to destination '" +
                batch[i].destination +
                "' was not published (it is published again): " + error.what());
      });
      return std::move(rounds).results();
    }
  }
  // Rounds (keyed_rounds.h): a message is sent only once every earlier one of its key
  // was acknowledged. A batch of distinct keys takes one round trip.
  for (std::vector<std::size_t> round = rounds.next(); !round.empty(); round = rounds.next()) {
    std::vector<detail::MsgPtr> sending;
    sending.reserve(round.size());
    for (std::size_t i : round)
      sending.push_back(std::move(encoded[i]));
    const std::vector<detail::PublishAnswer> answers =
        publish_round(*state_->publisher, state_->url, state_->stream_settles_by, batch, round,
                      std::move(sending));
    for (std::size_t n = 0; n < round.size(); ++n)
      rounds.settle(round[n], to_result(answers[n], batch[round[n]], state_->url));
  }
  // A connection the server closed serves no further batch: the next one opens another
  // (this one's unanswered messages came back kRetryable).
  if (state_->publisher->connection().closed())
    state_->publisher.reset();
  return std::move(rounds).results();
}

std::unique_ptr<spi::SubscriptionChannel> NatsTransport::do_subscribe(
    const SubscriptionOptions& options) {
  if (options.destination.empty()) {
    throw ConfigurationError(describe() +
                             ": a subscription without a destination (every destination) is not "
                             "supported on NATS JetStream; name one (SubscriptionOptions::"
                             "destination)");
  }
  if (!detail::is_publish_subject(options.destination)) {
    throw ConfigurationError(describe() + ": the destination '" + options.destination +
                             "' is not a NATS subject without wildcards; name one exactly");
  }
  if (options.prefetch > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
    throw ConfigurationError(describe() + ": a prefetch of " + std::to_string(options.prefetch) +
                             " is too large; give 1 to " +
                             std::to_string(std::numeric_limits<int>::max()));
  }
  return std::make_unique<detail::SubscriptionChannel>(
      state_->url, detail::SubscriptionRoute{
                       .destination = options.destination,
                       .consumer = consumer_name(options.destination, options.group),
                       .dead_letter_destination = dead_letter_destination(options.destination),
                       .prefetch = options.prefetch});
}

}  // namespace docket::nats
