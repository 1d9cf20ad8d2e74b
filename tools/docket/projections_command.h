// `docket projections`: the event feed consumers (docket/projections/event_feed_consumer.h)
// of a service, seen through their checkpoints, and repaired:
//   status   each consumer's checkpoint against the feed's head: how far it lags, in
//            positions (a feed of global positions) and in time (the oldest event past
//            the checkpoint); projections_status_command.cc
//   reset    sets one consumer's checkpoint (projections_reset_command.cc)
//   rebuild  deletes one consumer's dedup rows and sets its checkpoint to the start, so
//            its handlers run again over every event (projections_rebuild_command.cc)
// A consumer keeps its checkpoint and its dedup rows in its inbox store (--store); it
// reads the feed of an event store, the same database unless --events names another.
// Stores private to a process (memory:) are refused as by the other inspection
// commands (shared_store.h). docs/eventsourcing.md ("Operating feed consumers") says
// what each command changes.
//
// A checkpoint's scope: a whole-feed consumer keeps one checkpoint under
// "__untenanted__" (no --tenant), a consumer of one tenant's events one under its
// tenant (--tenant T).
//
// Thread-safety: the command's own thread.
#ifndef DOCKET_TOOLS_DOCKET_PROJECTIONS_COMMAND_H_
#define DOCKET_TOOLS_DOCKET_PROJECTIONS_COMMAND_H_

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "docket/core/clock.h"
#include "docket/core/feed_cursor.h"
#include "docket/core/tenant.h"
#include "docket/eventsourcing/event_store.h"
#include "docket/inbox/checkpoint_store.h"
#include "docket/inbox/inbox_store.h"

namespace docket::tool {

// Adds the `projections` command group and its subcommands.
void add_projections_command(CLI::App& app);
void add_projections_status_subcommand(CLI::App& group);
void add_projections_reset_subcommand(CLI::App& group);
void add_projections_rebuild_subcommand(CLI::App& group);

// What every projections command works on.
struct ProjectionStores {
  std::unique_ptr<InboxStore> inbox;   // the checkpoints and the dedup rows
  std::unique_ptr<EventStore> events;  // the feed
  std::string inbox_url;               // both printable (credentials masked)
  std::string events_url;
};

// Opens the inbox store on `store` and the event store on `events` (or `store`).
// Throws ConfigurationError naming `command` for a store private to the process and
// for an event store without a feed (naming --events).
ProjectionStores open_projection_stores(std::string_view command, const std::string& store,
                                        const std::optional<std::string>& events);

// The checkpoint scope of --tenant: that tenant, or "__untenanted__" (a whole-feed
// consumer). Throws InvalidInputError naming --tenant for a tenant the key rules refuse.
TenantId projection_scope(std::string_view command, const std::optional<std::string>& tenant);
// The feed's tenant filter of a scope: none for "__untenanted__".
std::optional<TenantId> projection_feed_tenant(const TenantId& scope);
// "every tenant (whole feed)" or "tenant 'acme'".
std::string describe_projection_scope(const TenantId& scope);

// Throws InvalidInputError naming --consumer when the id is no consumer id.
void require_projection_consumer(std::string_view command, std::string_view consumer);

// The consumer's checkpoint in `scope`, parsed. Throws InvalidInputError when it has
// none and `create` is false (naming the scopes it has a checkpoint in, if any, and
// what to pass), ConfigurationError when the stored text is no cursor of this feed.
// nullopt when it has none and `create` is true.
std::optional<FeedCursor> read_projection_checkpoint(std::string_view command,
                                                     ProjectionStores& stores,
                                                     std::string_view consumer,
                                                     const TenantId& scope, bool create = false);

// One checkpoint measured against the feed.
struct ProjectionLag {
  std::optional<FeedCursor> cursor;           // nullopt: no cursor of this feed
  std::optional<std::int64_t> head;           // feeds of global positions
  std::optional<std::int64_t> lag_positions;  // head + 1 - next position, at least 0
  std::optional<Timestamp> oldest_pending;    // the first event past the checkpoint
  std::chrono::microseconds lag_time{0};      // now - oldest_pending; 0 when none
};

// Reads the feed past `entry`'s checkpoint (one event) and, on a feed of global
// positions, its head (of the entry's tenant, or every tenant's for "__untenanted__").
ProjectionLag measure_projection_lag(EventStore& events, const CheckpointEntry& entry,
                                     Timestamp now);

// One consumer's checkpoint and its lag (projections status, the dashboard).
struct ProjectionStatusRow {
  CheckpointEntry entry;
  ProjectionLag lag;
};

// The checkpoints `request` matches, each measured against the feed, at most `limit`,
// read a page at a time; `more` when at least one more matches. request.limit and
// request.after are the listing's own.
struct ProjectionStatusListing {
  std::vector<ProjectionStatusRow> rows;
  bool more = false;
};
ProjectionStatusListing list_projection_status(ProjectionStores& stores,
                                               CheckpointListRequest request, std::uint64_t limit,
                                               Timestamp now);

// A row as `projections status --json` prints it: consumer_id, tenant, checkpoint,
// next_position, head, lag_positions, oldest_pending_at, lag_seconds, caught_up,
// updated_at, problem.
nlohmann::json projection_status_json(const ProjectionStatusRow& row);

// "3h12m5s", "850ms", "0s".
std::string format_projection_lag(std::chrono::microseconds lag);

}  // namespace docket::tool

#endif  // DOCKET_TOOLS_DOCKET_PROJECTIONS_COMMAND_H_
