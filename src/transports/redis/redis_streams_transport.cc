// The Redis Streams transport (docket/redis/transport.h): publishing on one
// connection of its own, serialised (as the NATS transport's), and subscriptions
// (redis_streams_channel.h).
//
// The publishing connection is the transport's own rather than the stores' pool
// (providers/redis/redis_pool.h): the pool replaces a connection the server closed
// before sending on it, silently, where a publisher must say that the server went away
// (it may have lost what it had not yet written to disk): the batch after is answered
// kRetryable and published again.
#include <algorithm>
#include <chrono>
#include <map>
#include <mutex>
#include <utility>

#include "docket/core/error.h"
#include "docket/redis/transport.h"
#include "transports/keyed_rounds.h"
#include "transports/redis/redis_streams_channel.h"
#include "transports/redis/redis_streams_commands.h"
#include "transports/redis/redis_streams_trim.h"
#include "transports/redis/redis_streams_url.h"
#include "transports/redis/redis_streams_wire.h"

namespace docket::redis {

struct StreamsTransport::State {
  explicit State(streams::StreamsUrl parsed) : url(std::move(parsed)) {}
  streams::StreamsUrl url;
  std::mutex mutex;  // one batch at a time on the publishing connection
  std::unique_ptr<detail::Connection> connection;  // null: connect on the next batch
  std::map<std::string, std::chrono::steady_clock::time_point> trimmed;  // by stream
};

namespace {

constexpr std::size_t kMaxDestinationBytes = 512;

// Why `destination` cannot name a stream, or empty.
std::string destination_problem(std::string_view destination) {
  if (destination.empty())
    return "the destination is empty; name one";
  if (destination.size() > kMaxDestinationBytes)
    return "the destination is longer than 512 bytes; shorten it";
  for (const char c : destination) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7f)
      return "the destination holds a control character; remove it";
  }
  return {};
}

PublishResult result_of(const detail::Reply& reply, const TransportMessage& message,
                        const std::string& stream, const std::string& transport) {
  const std::string what = transport + ": message '" + message.envelope.message_id +
                           "' to destination '" + message.destination + "' (stream '" + stream +
                           "') ";
  if (reply.is_nil()) {
    return PublishResult::failed(
        PublishStatus::kUnroutable,
        what +
            "is unroutable: the stream does not exist, as no consumer group subscribed to "
            "the destination yet; subscribe one (it creates the stream), or publish with "
            "create_stream=publish in the URL");
  }
  if (reply.is_error()) {
    const std::string_view text = reply.text();
    if (text.starts_with("WRONGTYPE")) {
      return PublishResult::failed(PublishStatus::kNacked,
                                   what +
                                       "was refused: the key holds another type than a "
                                       "stream; delete or rename it, or choose another "
                                       "stream_prefix; it is published again");
    }
    return PublishResult::failed(
        PublishStatus::kNacked,
        what + "was refused by Redis (" + std::string(text) + "); it is published again");
  }
  return PublishResult::confirmed();
}

}  // namespace

StreamsTransport::StreamsTransport(std::string_view url)
    : state_(std::make_unique<State>(streams::parse_streams_url(url))) {}

StreamsTransport::~StreamsTransport() = default;

std::string StreamsTransport::describe() const {
  return "Redis Streams " + state_->url.printable();
}

std::string StreamsTransport::stream_key(std::string_view destination) const {
  return state_->url.stream_prefix + std::string(destination);
}

void StreamsTransport::declare_group(std::string_view destination, std::string_view group) {
  if (const std::string problem = destination_problem(destination); !problem.empty())
    throw ConfigurationError(describe() + ": " + problem);
  // A channel creates the group when it connects; closing it leaves the group.
  streams::StreamsChannel channel(
      state_->url,
      {.destination = std::string(destination),
       .stream = stream_key(destination),
       .group = group.empty() ? state_->url.group : std::string(group),
       .dead_letter_destination = dead_letter_destination(destination),
       .dead_letter_stream = stream_key(dead_letter_destination(destination)),
       .prefetch = 1},
      describe());
}

long long StreamsTransport::trim(std::string_view destination) {
  const std::lock_guard lock(state_->mutex);
  try {
    if (!state_->connection || state_->connection->broken())
      state_->connection = std::make_unique<detail::Connection>(state_->url.server);
    return streams::trim_read_entries(*state_->connection, stream_key(destination),
                                      state_->url.claim_idle);
  } catch (const InfrastructureError& error) {
    state_->connection.reset();
    throw TransportError(describe() + ": trimming the stream of destination '" +
                         std::string(destination) + "': " + error.what());
  }
}

std::vector<PublishResult> StreamsTransport::do_publish_batch(
    std::span<const TransportMessage> batch) {
  const streams::StreamsUrl& url = state_->url;
  transports::KeyedRounds rounds(batch, describe());
  std::vector<detail::Command> commands(batch.size());
  for (std::size_t i = 0; i < batch.size(); ++i) {
    const TransportMessage& message = batch[i];
    const std::string refused = describe() + ": message '" + message.envelope.message_id +
                                "' to destination '" + message.destination + "' ";
    if (const std::string problem = destination_problem(message.destination); !problem.empty()) {
      rounds.settle(i, PublishResult::failed(PublishStatus::kRefused,
                                             refused + "cannot be published: " + problem));
      continue;
    }
    try {
      streams::Fields fields = streams::encode_entry(message);
      if (const std::size_t bytes = streams::entry_bytes(fields); bytes > url.max_message_bytes) {
        rounds.settle(
            i, PublishResult::failed(PublishStatus::kRefused,
                                     refused + "was refused for good: its entry is " +
                                         std::to_string(bytes) + " bytes, over max_message_bytes=" +
                                         std::to_string(url.max_message_bytes) + " (the URL's)"));
        continue;
      }
      commands[i] =
          streams::xadd(stream_key(message.destination), std::move(fields), url.create_on_publish);
    } catch (const InvalidInputError& error) {
      rounds.settle(i, PublishResult::failed(PublishStatus::kRefused,
                                             refused + "cannot be published: " + error.what()));
    }
  }
  const std::lock_guard lock(state_->mutex);
  const auto retry_all = [&](const std::string& why) {
    rounds.settle_rest([&](std::size_t i) {
      return PublishResult::failed(PublishStatus::kRetryable,
                                   describe() + ": message '" + batch[i].envelope.message_id +
                                       "' to destination '" + batch[i].destination +
                                       "' was not published (it is published again): " + why);
    });
  };
  if (state_->connection && state_->connection->broken()) {
    state_->connection.reset();
    retry_all("the server closed the connection since the last batch (restarted?)");
    return std::move(rounds).results();
  }
  if (!state_->connection) {
    try {
      state_->connection = std::make_unique<detail::Connection>(url.server);
    } catch (const InfrastructureError& error) {
      retry_all(error.what());
      return std::move(rounds).results();
    }
  }
  // Rounds (keyed_rounds.h): a message is sent only once every earlier one of its key
  // was added; each round is one pipeline, one round trip.
  for (std::vector<std::size_t> round = rounds.next(); !round.empty(); round = rounds.next()) {
    std::vector<detail::Command> sending;
    sending.reserve(round.size());
    for (const std::size_t i : round)
      sending.push_back(std::move(commands[i]));
    std::vector<detail::Reply> replies;
    try {
      replies = state_->connection->pipeline(sending);
    } catch (const InfrastructureError& error) {
      state_->connection.reset();
      retry_all(error.what());
      return std::move(rounds).results();
    }
    for (std::size_t n = 0; n < round.size(); ++n) {
      const TransportMessage& message = batch[round[n]];
      rounds.settle(round[n],
                    result_of(replies[n], message, stream_key(message.destination), describe()));
    }
  }
  if (url.trim) {
    const auto now = std::chrono::steady_clock::now();
    for (const TransportMessage& message : batch) {
      const std::string stream = stream_key(message.destination);
      auto& last = state_->trimmed[stream];
      if (now - last < url.trim_interval)
        continue;
      last = now;
      try {
        streams::trim_read_entries(*state_->connection, stream, url.claim_idle);
      } catch (const InfrastructureError&) {
        // Trimming is housekeeping: the next batch's trim tries again.
        if (state_->connection->broken())
          break;
      }
    }
  }
  return std::move(rounds).results();
}

std::unique_ptr<spi::SubscriptionChannel> StreamsTransport::do_subscribe(
    const SubscriptionOptions& options) {
  if (const std::string problem = destination_problem(options.destination); !problem.empty()) {
    throw ConfigurationError(describe() + ": a subscription's destination names its stream: " +
                             problem + " (SubscriptionOptions::destination)");
  }
  if (options.prefetch == 0 || options.prefetch > 100000) {
    throw ConfigurationError(describe() + ": a prefetch of " + std::to_string(options.prefetch) +
                             " is out of range; give 1 to 100000");
  }
  return std::make_unique<streams::StreamsChannel>(
      state_->url,
      streams::ChannelRoute{
          .destination = options.destination,
          .stream = stream_key(options.destination),
          .group = options.group.empty() ? state_->url.group : options.group,
          .dead_letter_destination = dead_letter_destination(options.destination),
          .dead_letter_stream = stream_key(dead_letter_destination(options.destination)),
          .prefetch = options.prefetch},
      describe());
}

}  // namespace docket::redis
