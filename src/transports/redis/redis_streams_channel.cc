// A subscription of the Redis Streams transport (redis_streams_channel.h).
#include "transports/redis/redis_streams_channel.h"

#include <unistd.h>

#include <algorithm>
#include <random>
#include <thread>
#include <utility>

#include "docket/core/error.h"
#include "docket/transports/transport.h"
#include "transports/redis/redis_streams_commands.h"

namespace docket::redis::streams {
namespace {

using std::chrono::milliseconds;

constexpr milliseconds kFirstBackoff{50};
constexpr milliseconds kMaxBackoff{2000};
constexpr milliseconds kMaxBlock{1000};
constexpr std::size_t kMaxRecovered = 100000;

std::string consumer_name() {
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) != 0)
    host[0] = '\0';
  std::random_device random;
  const std::uint64_t bits = (static_cast<std::uint64_t>(random()) << 32) ^ random();
  static constexpr char kHex[] = "0123456789abcdef";
  std::string suffix;
  for (int shift = 60; shift >= 0; shift -= 4)
    suffix.push_back(kHex[(bits >> shift) & 15]);
  return std::string(host) + "-" + std::to_string(getpid()) + "-" + suffix;
}

}  // namespace

StreamsChannel::StreamsChannel(StreamsUrl url, ChannelRoute route, std::string transport)
    : url_(std::move(url)),
      route_(std::move(route)),
      transport_(std::move(transport)),
      consumer_(consumer_name()) {
  try {
    connect();
  } catch (const detail::ConnectionLostError& error) {
    throw TransportError(what_of("subscribing") + ": " + error.what());
  } catch (const InfrastructureError& error) {
    throw TransportError(what_of("subscribing") + ": " + error.what());
  }
}

StreamsChannel::~StreamsChannel() {
  close();
}

std::string StreamsChannel::what_of(std::string_view doing) const {
  return transport_ + ": " + std::string(doing) + " destination '" + route_.destination +
         "' (stream '" + route_.stream + "', group '" + route_.group + "')";
}

void StreamsChannel::connect() {
  auto connection = std::make_unique<detail::Connection>(url_.server);
  const detail::Reply created = connection->run(create_group(route_.stream, route_.group));
  if (created.is_error() && !created.text().starts_with("BUSYGROUP")) {
    if (created.text().starts_with("WRONGTYPE")) {
      throw ConfigurationError(what_of("subscribing to") + ": the key '" + route_.stream +
                               "' holds another type than a stream; delete or rename it, or "
                               "choose another stream_prefix");
    }
    created.ok();
  }
  // What this consumer's pending list holds (only after a lost connection, since the
  // name is the channel's own): taken back, each delivered again.
  const detail::Reply pending_reply =
      connection->run(pending(route_.stream, route_.group, "-", "+", kMaxRecovered, consumer_));
  const auto counts = pending_counts(pending_reply);
  if (!counts.empty()) {
    std::vector<std::string> ids;
    for (const auto& [id, count] : counts)
      ids.push_back(id);
    std::sort(ids.begin(), ids.end(), id_before);
    const detail::Reply claimed =
        connection->run(claim(route_.stream, route_.group, consumer_, ids, false));
    std::map<std::string, std::uint32_t> after;
    for (const auto& [id, count] : counts)
      after[id] = count + 1;
    connection_ = std::move(connection);
    take(claimed_entries(claimed), &after);
  } else {
    connection_ = std::move(connection);
  }
  refreshed_ = Clock::now();
  backoff_ = milliseconds(0);
}

void StreamsChannel::lost() {
  connection_.reset();
  held_.clear();
  buffer_.clear();
  waiting_.clear();
  acks_.clear();  // their entries come back from the pending list, and the inbox says so
  autoclaim_cursor_ = "0-0";
  backoff_ = backoff_.count() == 0 ? kFirstBackoff : std::min(backoff_ * 2, kMaxBackoff);
  reconnect_at_ = Clock::now() + backoff_;
}

bool StreamsChannel::connected_or_waited(Clock::time_point deadline) {
  if (connection_)
    return true;
  const auto now = Clock::now();
  if (now < reconnect_at_) {
    std::this_thread::sleep_until(std::min(deadline, reconnect_at_));
    if (Clock::now() < reconnect_at_)
      return false;
  }
  try {
    connect();
    return true;
  } catch (const InfrastructureError&) {  // down, or lost again: a later call tries again
    lost();
    return false;
  }
}

void StreamsChannel::refresh_idle() {
  if (Clock::now() - refreshed_ < url_.claim_idle / 3)
    return;
  std::vector<std::string> ids;
  for (const auto& [tag, entry] : held_)
    ids.push_back(entry.id);
  for (const Entry& entry : buffer_)
    ids.push_back(entry.id);
  for (const Waiting& waiting : waiting_)
    ids.push_back(waiting.entry.id);
  std::vector<detail::Command> commands;
  if (!acks_.empty())
    commands.push_back(take_acks());
  if (!ids.empty())
    commands.push_back(claim(route_.stream, route_.group, consumer_, ids, true));
  if (!commands.empty()) {
    for (const detail::Reply& reply : connection_->pipeline(commands))
      reply.ok();
  }
  refreshed_ = Clock::now();
}

std::optional<Delivery> StreamsChannel::due_return() {
  const auto now = Clock::now();
  auto chosen = waiting_.end();
  for (auto it = waiting_.begin(); it != waiting_.end(); ++it) {
    if (it->due <= now && (chosen == waiting_.end() || id_before(it->entry.id, chosen->entry.id)))
      chosen = it;
  }
  if (chosen == waiting_.end())
    return std::nullopt;
  Entry entry = std::move(chosen->entry);
  waiting_.erase(chosen);
  // Delivered again: the server's delivery count goes up with it, as XREADGROUP's does.
  entry.delivery.delivery_count += 1;
  entry.delivery.redelivered = true;
  const detail::Reply claimed =
      connection_->run({"XCLAIM", route_.stream, route_.group, consumer_, "0", entry.id,
                        "RETRYCOUNT", std::to_string(entry.delivery.delivery_count), "JUSTID"});
  if (claimed.ok().size() == 0)
    return std::nullopt;  // settled or deleted meanwhile: nothing to deliver
  return hand_out(std::move(entry));
}

std::optional<Delivery> StreamsChannel::from_buffer() {
  for (auto it = buffer_.begin(); it != buffer_.end(); ++it) {
    const auto& key = key_of(it->delivery);
    const bool blocked = key && std::any_of(waiting_.begin(), waiting_.end(), [&](const auto& w) {
                           return key_of(w.entry.delivery) == key;
                         });
    if (blocked)
      continue;  // its key's returned entry comes first
    Entry entry = std::move(*it);
    buffer_.erase(it);
    return hand_out(std::move(entry));
  }
  return std::nullopt;
}

Delivery StreamsChannel::hand_out(Entry entry) {
  const std::uint64_t tag = next_tag_++;
  entry.delivery.tag = tag;
  entry.handed_out = true;
  Delivery delivery = entry.delivery;
  held_.emplace(tag, std::move(entry));
  return delivery;
}

void StreamsChannel::take(std::vector<StreamEntry> entries,
                          const std::map<std::string, std::uint32_t>* counts) {
  for (StreamEntry& entry : entries) {
    std::uint32_t count = 1;
    if (counts != nullptr) {
      const auto found = counts->find(entry.id);
      count = found == counts->end() ? 2 : found->second;
    }
    Fields raw = entry.fields;
    TransportMessage message;
    try {
      message = decode_entry(std::move(entry.fields), route_.destination);
    } catch (const InvalidInputError& error) {
      raw.emplace_back(kDeadLetterErrorHeader,
                       "not a docket message: " + std::string(error.what()));
      raw.emplace_back(kDeadLetterDeliveriesHeader, std::to_string(count));
      move_to_dead_letters(entry.id, raw);
      continue;
    }
    if (counts != nullptr && count > url_.max_deliveries) {
      message.headers.push_back(
          {std::string(kDeadLetterErrorHeader),
           "delivered " + std::to_string(count) +
               " times, more than max_deliveries=" + std::to_string(url_.max_deliveries) +
               ", without being settled: its consumers died or closed holding it"});
      message.headers.push_back({std::string(kDeadLetterDeliveriesHeader), std::to_string(count)});
      move_to_dead_letters(entry.id, encode_entry(message));
      continue;
    }
    buffer_.push_back(Entry{
        .id = std::move(entry.id),
        .delivery = Delivery{
            .message = std::move(message), .delivery_count = count, .redelivered = count > 1}});
  }
}

void StreamsChannel::fetch(std::optional<milliseconds> block) {
  const std::size_t holding = held_.size() + buffer_.size();
  if (holding >= route_.prefetch) {
    if (block)
      std::this_thread::sleep_for(*block);  // only returned entries' delays can end it
    return;
  }
  const std::size_t room = route_.prefetch - holding;
  std::vector<detail::Command> commands;
  if (!acks_.empty())
    commands.push_back(take_acks());
  const std::size_t first = commands.size();
  if (block) {
    commands.push_back(read_new(route_.stream, route_.group, consumer_, room, block));
    const std::vector<detail::Reply> replies = connection_->pipeline(commands);
    for (std::size_t i = 0; i < first; ++i)
      replies[i].ok();
    take(read_group_entries(replies[first]), nullptr);
    return;
  }
  commands.push_back(
      auto_claim(route_.stream, route_.group, consumer_, url_.claim_idle, autoclaim_cursor_, room));
  commands.push_back(read_new(route_.stream, route_.group, consumer_, room, std::nullopt));
  const std::vector<detail::Reply> replies = connection_->pipeline(commands);
  for (std::size_t i = 0; i < first; ++i)
    replies[i].ok();
  AutoClaimed claimed = auto_claimed_entries(replies[first]);
  autoclaim_cursor_ = claimed.cursor;
  if (!claimed.entries.empty()) {
    const detail::Reply counts = connection_->run(
        pending(route_.stream, route_.group, claimed.entries.front().id, claimed.entries.back().id,
                claimed.entries.size() + holding + waiting_.size(), consumer_));
    const auto by_id = pending_counts(counts);
    take(std::move(claimed.entries), &by_id);
  }
  take(read_group_entries(replies[first + 1]), nullptr);
}

std::optional<Delivery> StreamsChannel::next(milliseconds wait) {
  if (closed_)
    return std::nullopt;
  const auto deadline = Clock::now() + wait;
  const milliseconds max_block =
      std::min(kMaxBlock, milliseconds(std::max(1, url_.server.command_timeout_ms / 2)));
  for (;;) {
    if (held_.size() >= route_.prefetch)
      return std::nullopt;
    if (connected_or_waited(deadline)) {
      try {
        refresh_idle();
        if (auto delivery = due_return())
          return delivery;
        if (auto delivery = from_buffer())
          return delivery;
        fetch(std::nullopt);
        if (auto delivery = from_buffer())
          return delivery;
        const auto now = Clock::now();
        auto until = deadline;
        for (const Waiting& waiting : waiting_)
          until = std::min(until, waiting.due);
        if (until > now) {
          const auto block =
              std::clamp(std::chrono::ceil<milliseconds>(until - now), milliseconds(1), max_block);
          fetch(block);
          if (auto delivery = from_buffer())
            return delivery;
        }
      } catch (const InfrastructureError&) {
        lost();  // reopened by a later pass, with backoff
      }
    }
    if (Clock::now() >= deadline)
      return std::nullopt;
  }
}

}  // namespace docket::redis::streams
