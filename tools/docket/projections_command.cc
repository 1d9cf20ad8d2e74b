// The `projections` group and what its commands share (projections_command.h): the two
// stores, the checkpoint's scope, the consumer's checkpoint and a checkpoint's lag.
#include "projections_command.h"

#include <algorithm>
#include <string>
#include <vector>

#include "docket/core/error.h"
#include "docket/inbox/inbox_options.h"
#include "docket/stores/open_store.h"
#include "docket/stores/printable_store_url.h"
#include "shared_store.h"

namespace docket::tool {

ProjectionStores open_projection_stores(std::string_view command, const std::string& store,
                                        const std::optional<std::string>& events) {
  ProjectionStores stores;
  stores.inbox = open_inbox_store(store);
  require_service_store(command, store, stores.inbox->capabilities(), "inbox store");
  const std::string& events_url = events.value_or(store);
  stores.events = open_event_store(events_url);
  require_service_store(command, events_url, stores.events->capabilities(), "event store");
  stores.inbox_url = printable_store_url(store);
  stores.events_url = printable_store_url(events_url);
  if (stores.events->capabilities().feed == FeedKind::kNone) {
    throw ConfigurationError(
        std::string(command) + ": the " + std::string(stores.events->provider_name()) +
        " event store at '" + stores.events_url +
        "' has no feed over every stream, so no feed consumer reads it. Nothing was read or "
        "changed. Pass --events URL: the event store your consumers read (SQLite or "
        "PostgreSQL), while --store stays the store their checkpoints and dedup rows are in");
  }
  return stores;
}

TenantId projection_scope(std::string_view command, const std::optional<std::string>& tenant) {
  if (!tenant) {
    return TenantId::untenanted();
  }
  try {
    return TenantId(*tenant);
  } catch (const InvalidInputError& refused) {
    throw InvalidInputError(std::string(command) + ": --tenant: " + refused.what());
  }
}

std::optional<TenantId> projection_feed_tenant(const TenantId& scope) {
  return scope.is_untenanted() ? std::nullopt : std::optional<TenantId>(scope);
}

std::string describe_projection_scope(const TenantId& scope) {
  return scope.is_untenanted() ? "every tenant (whole feed)" : "tenant '" + scope.value() + "'";
}

void require_projection_consumer(std::string_view command, std::string_view consumer) {
  if (auto problem = consumer_id_problem(consumer)) {
    throw InvalidInputError(std::string(command) + ": --consumer: " + *problem +
                            "; pass the consumer id of the feed consumer's inbox options "
                            "(`docket projections status` lists them)");
  }
}

std::optional<FeedCursor> read_projection_checkpoint(std::string_view command,
                                                     ProjectionStores& stores,
                                                     std::string_view consumer,
                                                     const TenantId& scope, bool create) {
  CheckpointStore& checkpoints = stores.inbox->checkpoints();
  std::optional<std::string> stored;
  {
    const TenantScope in_scope(scope);
    stored = checkpoints.get(consumer);
  }
  if (!stored) {
    if (create) {
      return std::nullopt;
    }
    // Where the consumer does keep checkpoints, to say what to pass instead.
    const CheckpointPage elsewhere =
        checkpoints.list({.consumer_id = std::string(consumer), .limit = 10});
    std::string hint;
    for (const CheckpointEntry& entry : elsewhere.entries) {
      hint += (hint.empty() ? "" : ", ") + (entry.tenant.is_untenanted()
                                                ? std::string("no --tenant (whole feed)")
                                                : "--tenant " + entry.tenant.value());
    }
    throw InvalidInputError(
        std::string(command) + ": consumer '" + std::string(consumer) + "' has no checkpoint for " +
        describe_projection_scope(scope) + " in the inbox store '" + stores.inbox_url +
        "'. Nothing was changed. " +
        (hint.empty() ? "Check the id (`docket projections status` lists every consumer)"
                      : "It keeps one under: " + hint) +
        (command == "projections reset"
             ? "; or pass --create to set one for a consumer that has not run yet"
             : ""));
  }
  std::optional<FeedCursor> cursor = FeedCursor::try_parse(*stored);
  if (!cursor || !stores.events->accepts_cursor(*cursor)) {
    throw ConfigurationError(
        std::string(command) + ": consumer '" + std::string(consumer) + "' (" +
        describe_projection_scope(scope) + ") has checkpoint '" + *stored +
        "', which is no cursor of the " + std::string(stores.events->provider_name()) +
        " event store's feed (" + std::string(describe(stores.events->capabilities().feed)) +
        "): it reads another feed. Nothing was changed. Pass --events with that feed's store");
  }
  return cursor;
}

ProjectionLag measure_projection_lag(EventStore& events, const CheckpointEntry& entry,
                                     Timestamp now) {
  ProjectionLag lag;
  lag.cursor = FeedCursor::try_parse(entry.position);
  if (lag.cursor && !events.accepts_cursor(*lag.cursor)) {
    lag.cursor.reset();
  }
  if (!lag.cursor) {
    return lag;
  }
  const std::optional<TenantId> tenant = projection_feed_tenant(entry.tenant);
  if (const std::optional<std::int64_t> next = lag.cursor->position()) {
    lag.head = events.last_position(tenant);
    lag.lag_positions = std::max<std::int64_t>(0, *lag.head + 1 - std::max<std::int64_t>(1, *next));
  }
  const FeedPage past = events.read_feed(*lag.cursor, 1, tenant);
  if (!past.events.empty()) {
    lag.oldest_pending = past.events.front().occurred_at;
    lag.lag_time = std::max(std::chrono::microseconds(0),
                            std::chrono::duration_cast<std::chrono::microseconds>(
                                now - past.events.front().occurred_at));
  }
  return lag;
}

std::string format_projection_lag(std::chrono::microseconds lag) {
  using std::chrono::duration_cast;
  if (lag < std::chrono::seconds(1)) {
    return std::to_string(duration_cast<std::chrono::milliseconds>(lag).count()) + "ms";
  }
  auto seconds = duration_cast<std::chrono::seconds>(lag).count();
  std::string out;
  for (const auto& [unit, size] : {std::pair{"d", 86'400}, {"h", 3'600}, {"m", 60}}) {
    if (seconds >= size || !out.empty()) {
      out += std::to_string(seconds / size) + unit;
      seconds %= size;
    }
  }
  return out + std::to_string(seconds) + "s";
}

void add_projections_command(CLI::App& app) {
  CLI::App* group = app.add_subcommand(
      "projections",
      "Event feed consumers (projections): each one's checkpoint against the feed's head "
      "(status), set a checkpoint (reset), or run a consumer's handlers again over every "
      "event (rebuild); docs/eventsourcing.md");
  group->require_subcommand(1);
  add_projections_status_subcommand(*group);
  add_projections_reset_subcommand(*group);
  add_projections_rebuild_subcommand(*group);
}

}  // namespace docket::tool
