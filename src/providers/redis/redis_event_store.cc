// The Redis EventStore (redis_event_store.h).
#include "providers/redis/redis_event_store.h"

#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "docket/core/error.h"
#include "providers/kit/unit_streams.h"
#include "providers/redis/redis_event_fields.h"
#include "providers/redis/redis_joined_unit.h"
#include "providers/redis/redis_keyspace.h"
#include "providers/redis/redis_limits.h"
#include "providers/redis/redis_listener.h"
#include "providers/redis/redis_unit.h"

namespace docket::redis::detail {
namespace {

// ARGV: 'load', the events' namespace (P event:), the stream's list, from version;
// or 'range', the namespace, a feed, from position, limit. The events' HGETALLs, in
// order. A key of another type where a stream or a feed belongs is refused.
constexpr std::string_view kEventReadScript = R"lua(
local op, ns, key = ARGV[1], ARGV[2], ARGV[3]
local want = 'zset'
if op == 'load' then want = 'list' end
local t = redis.call('TYPE', key)['ok']
if t ~= want and t ~= 'none' then
  return redis.error_reply('WRONGTYPE the event store key ' .. key .. ' holds a ' .. t ..
    ', which docket did not write: remove it, or give docket a prefix of its own (?prefix=)')
end
local positions
if op == 'load' then
  positions = redis.call('LRANGE', key, ARGV[4], -1)
else
  positions = redis.call('ZRANGEBYSCORE', key, ARGV[4], '+inf', 'LIMIT', 0, ARGV[5])
end
local out = {}
for _, pos in ipairs(positions) do out[#out + 1] = redis.call('HGETALL', ns .. pos) end
return out
)lua";

class RedisEventStore final : public EventStore {
 public:
  RedisEventStore(std::string_view url, const Clock& clock)
      : EventStore(clock),
        pool_(parse_url(url)),
        commit_script_("the commit script", commit_script_source()),
        read_script_("the event read script", kEventReadScript),
        context_{pool_, commit_script_, pool_.url().key(kDedupIndex), clock},
        name_(pool_.url().describe_store("event store")) {}

  std::string_view provider_name() const noexcept override { return "redis"; }
  StoreCapabilities capabilities() const noexcept override {
    return {.joins_handler_writes = true,
            .interactive_transactions = false,
            .max_writes_per_commit = 0,
            .max_bytes_per_commit = 0,  // no write limit, so no byte limit is stated
            .max_bytes_per_record = kMaxBulkBytes,
            .feed = FeedKind::kGlobalPositions,
            .server_side_expiry = false,
            .shared_between_processes = true,
            .concurrent_writers = false};
  }

  // The commit script publishes to the appended channel whenever a commit appended events
  // (whichever store's unit it was, in whichever process): one listening connection per
  // process and server hears it (redis_listener.h), and a feed consumer waiting on it
  // reads at once.
  std::shared_ptr<WakeSignal> appended_signal() override {
    const std::lock_guard lock(listener_mutex_);
    if (!listener_) {
      listener_ = shared_listener(pool_.url(), pool_.url().key(kEventsAppended));
    }
    return listener_->signal();
  }

 private:
  AppendResult do_append(const StreamId& stream, ExpectedVersion expected,
                         std::vector<RecordedEvent> events) override {
    Unit unit(context_);
    std::optional<std::int64_t> version;
    if (!expected.is_any()) {
      version = expected.value() + 1;
    }
    stage(unit, stream, events, [&](std::size_t i) {
      return version ? std::optional(*version + static_cast<std::int64_t>(i)) : std::nullopt;
    });
    try {
      unit.commit();
    } catch (const ConcurrencyConflictError&) {
      return VersionConflict{.subject = "append to " + stream.describe(),
                             .expected_version = expected.value(),
                             .actual_version = current_version(stream)};
    }
    AppendSuccess success{.new_version = unit.placed_events().back().version, .events = {}};
    for (std::size_t i = 0; i < events.size(); ++i) {
      const PlacedEvent& placed = unit.placed_events()[i];
      success.events.push_back(
          {placed.version, placed.position, events[i].event_id, events[i].occurred_at});
    }
    return success;
  }

  AppendResult do_append_in(HandlerTransaction& transaction, const StreamId& stream,
                            ExpectedVersion expected, std::vector<RecordedEvent> events) override {
    Unit* joined = nullptr;
    try {
      joined = &joined_unit(transaction, pool_.url(), name_, "append events");
    } catch (const ConfigurationError& e) {
      throw cannot_join_error(transaction, e.what());
    }
    Unit& unit = *joined;
    const std::string key = event_stream_key(pool_.url(), stream);
    if (auto conflict = unit.streams().number(
            unit.staged_events(), key, [&] { return current_version(stream); }, stream, expected,
            events)) {
      return std::move(*conflict);
    }
    stage(unit, stream, events, [&](std::size_t i) { return std::optional(events[i].version); });
    return kit::appended(events);
  }

  std::vector<RecordedEvent> do_load(const StreamId& stream, std::int64_t from_version) override {
    return records(
        read_script_.run(pool_,
                         {"load", pool_.url().key(kEventRecords),
                          event_stream_key(pool_.url(), stream), std::to_string(from_version)},
                         Replay::kSafe));
  }

  ReadAllPage do_read_all(std::int64_t from_position, std::size_t limit,
                          const TenantId* tenant) override {
    ReadAllPage page;
    page.events =
        records(read_script_.run(pool_,
                                 {"range", pool_.url().key(kEventRecords), feed_of(tenant),
                                  std::to_string(from_position), std::to_string(limit)},
                                 Replay::kSafe));
    page.next_position =
        page.events.empty() ? from_position : page.events.back().global_position + 1;
    return page;
  }

  std::int64_t do_last_position(const TenantId* tenant) override {
    const Reply reply = pool_.run({"ZRANGE", feed_of(tenant), "-1", "-1"}, Replay::kSafe);
    reply.ok();
    if (reply.size() == 0) {
      return 0;
    }
    return std::stoll(reply.string_at(0).value_or("0"));
  }

  std::string feed_of(const TenantId* tenant) const {
    return tenant == nullptr ? pool_.url().key(kEventFeed)
                             : event_tenant_feed_key(pool_.url(), tenant->value());
  }

  // Stages `events` of `stream` in `unit`, event i at version_of(i).
  template <class VersionOf>
  void stage(Unit& unit, const StreamId& stream, const std::vector<RecordedEvent>& events,
             const VersionOf& version_of) {
    const std::string key = event_stream_key(pool_.url(), stream);
    const std::string tenant_feed = event_tenant_feed_key(pool_.url(), stream.tenant().value());
    // Every event is checked before any is staged: a refused append stages nothing.
    std::vector<std::vector<std::string>> fields;
    for (const RecordedEvent& event : events) {
      fields.push_back(event_fields(event));
      check_record(name_, "an event of " + stream.describe(), fields.back(),
                   "Make the event's payload smaller.");
    }
    for (std::size_t i = 0; i < events.size(); ++i) {
      const std::optional<std::int64_t> version = version_of(i);
      std::optional<kit::StagedEvent> staged;
      if (version) {
        staged =
            kit::StagedEvent{.stream_key = key, .stream = stream.describe(), .version = *version};
      }
      unit.stage_event(EventWrite{.stream_key = key,
                                  .tenant_feed = tenant_feed,
                                  .version = version,
                                  .event = std::move(staged),
                                  .fields = std::move(fields[i])});
    }
  }

  // The stream's last version (LLEN - 1), kNoStreamVersion when it has none.
  std::int64_t current_version(const StreamId& stream) {
    const Reply reply = pool_.run({"LLEN", event_stream_key(pool_.url(), stream)}, Replay::kSafe);
    if (reply.is_error()) {
      throw InfrastructureError(name_ + ": the stream key of " + stream.describe() +
                                " is refused by Redis (" + std::string(reply.text()) +
                                "): a key of another type where docket keeps the stream; "
                                "remove it, or give docket a prefix of its own (?prefix=)");
    }
    return reply.integer() - 1;
  }

  std::vector<RecordedEvent> records(const Reply& reply) const {
    std::vector<RecordedEvent> events;
    for (std::size_t i = 0; i < reply.size(); ++i) {
      events.push_back(event_of(reply.strings_at(i), name_));
    }
    return events;
  }

  Pool pool_;
  Script commit_script_;
  Script read_script_;
  UnitContext context_;
  std::string name_;
  std::mutex listener_mutex_;
  std::shared_ptr<kit::NotificationListener> listener_;  // opened by the first appended_signal()
};

}  // namespace

std::unique_ptr<EventStore> open_event_store(std::string_view url, const Clock& clock) {
  return std::make_unique<RedisEventStore>(url, clock);
}

}  // namespace docket::redis::detail
