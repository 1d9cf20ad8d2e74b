// docket projections status: every feed consumer's checkpoint (CheckpointStore::list,
// a page at a time, bounded by --limit) against the feed's head: the lag in positions
// on a feed of global positions (head + 1 - the next position it reads: positions, so
// gaps and, for one tenant's consumer, other tenants' events count too) and in time
// (now - the occurred-at of the first event past the checkpoint; 0 when none is). On a
// feed of opaque cursors there are no positions: the time lag and whether the consumer
// is caught up are what status shows. A checkpoint that is no cursor of the feed
// (another feed's consumer, an outbox pull consumer's sequence on a feed of opaque
// cursors) is listed with that problem. Every check of the command line is made
// before a store is opened.
#include <algorithm>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "count_option.h"
#include "docket/core/error.h"
#include "projections_command.h"
#include "usage_error.h"

namespace docket::tool {
namespace {

constexpr std::uint64_t kProjectionsStatusDefaultLimit = 100;
constexpr std::uint64_t kProjectionsStatusMaxLimit = 1'000'000;
constexpr std::size_t kProjectionsStatusPageSize = 500;

struct ProjectionsStatusArgs {
  std::string store;
  std::optional<std::string> events;
  std::optional<std::string> consumer;
  std::optional<std::string> tenant;
  std::uint64_t limit = kProjectionsStatusDefaultLimit;
  bool json = false;
};

std::size_t status_cell_width(std::string_view cell) {
  return static_cast<std::size_t>(std::count_if(cell.begin(), cell.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xc0) != 0x80;
  }));
}

void print_status_table(const std::vector<ProjectionStatusRow>& rows) {
  std::vector<std::vector<std::string>> cells = {{"CONSUMER", "TENANT", "CHECKPOINT", "HEAD", "LAG",
                                                  "OLDEST PENDING", "LAG TIME", "LAST SET"}};
  for (const ProjectionStatusRow& row : rows) {
    const ProjectionLag& lag = row.lag;
    const bool usable = lag.cursor.has_value();
    cells.push_back(
        {row.entry.consumer_id,
         row.entry.tenant.is_untenanted() ? "(whole feed)" : row.entry.tenant.value(),
         row.entry.position, lag.head ? std::to_string(*lag.head) : "-",
         lag.lag_positions ? std::to_string(*lag.lag_positions) : "-",
         !usable ? "(not a cursor of this feed)"
                 : (lag.oldest_pending ? format_timestamp(*lag.oldest_pending) : "(caught up)"),
         usable ? format_projection_lag(lag.lag_time) : "-",
         format_timestamp(row.entry.updated_at)});
  }
  std::vector<std::size_t> widths(cells.front().size(), 0);
  for (const auto& line : cells) {
    for (std::size_t i = 0; i < line.size(); ++i) {
      widths[i] = std::max(widths[i], status_cell_width(line[i]));
    }
  }
  for (const auto& line : cells) {
    std::string text;
    for (std::size_t i = 0; i < line.size(); ++i) {
      text += line[i];
      if (i + 1 < line.size()) {
        text += std::string(widths[i] - status_cell_width(line[i]) + 2, ' ');
      }
    }
    std::cout << text << '\n';
  }
}

void run_projections_status(const ProjectionsStatusArgs& args) {
  constexpr std::string_view kCommand = "projections status";
  if (args.limit == 0 || args.limit > kProjectionsStatusMaxLimit) {
    throw UsageError("projections status: --limit is " + std::to_string(args.limit) +
                     "; give 1 to " + std::to_string(kProjectionsStatusMaxLimit));
  }
  if (args.consumer) {
    require_projection_consumer(kCommand, *args.consumer);
  }
  CheckpointListRequest request{.consumer_id = args.consumer, .tenant = std::nullopt};
  if (args.tenant) {
    request.tenant = projection_scope(kCommand, args.tenant);
  }
  ProjectionStores stores = open_projection_stores(kCommand, args.store, args.events);
  const Timestamp now = SystemClock::instance().now();
  const auto [rows, more] = list_projection_status(stores, request, args.limit, now);
  if (args.consumer && rows.empty()) {
    throw InvalidInputError(
        "projections status: no checkpoint of consumer '" + *args.consumer + "'" +
        (args.tenant ? " for tenant '" + *args.tenant + "'" : std::string()) +
        " in the inbox store '" + stores.inbox_url +
        "': a feed consumer keeps one once it has run. Check the id; without --consumer the "
        "command lists every consumer");
  }
  const std::string feed(describe(stores.events->capabilities().feed));
  if (args.json) {
    nlohmann::json listed = nlohmann::json::array();
    for (const ProjectionStatusRow& row : rows) {
      listed.push_back(projection_status_json(row));
    }
    std::cout << nlohmann::json{{"store", stores.inbox_url},
                                {"events", stores.events_url},
                                {"feed", feed},
                                {"consumer_id", args.consumer ? nlohmann::json(*args.consumer)
                                                              : nlohmann::json(nullptr)},
                                {"tenant", args.tenant ? nlohmann::json(*args.tenant)
                                                       : nlohmann::json(nullptr)},
                                {"count", rows.size()},
                                {"more", more},
                                {"projections", std::move(listed)}}
                     .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
              << '\n';
    return;
  }
  std::cout << "inbox store   " << stores.inbox_url << '\n'
            << "event store   " << stores.events_url << " (feed: " << feed << ")\n"
            << "consumers     " << rows.size()
            << (more ? " shown, more match: raise --limit to see them" : "") << '\n';
  if (!rows.empty()) {
    std::cout << '\n';
    print_status_table(rows);
  }
}

}  // namespace

ProjectionStatusListing list_projection_status(ProjectionStores& stores,
                                               CheckpointListRequest request, std::uint64_t limit,
                                               Timestamp now) {
  ProjectionStatusListing listing;
  request.limit =
      static_cast<std::size_t>(std::min<std::uint64_t>(kProjectionsStatusPageSize, limit + 1));
  while (!listing.more) {
    CheckpointPage page = stores.inbox->checkpoints().list(request);
    for (CheckpointEntry& entry : page.entries) {
      if (listing.rows.size() == limit) {
        listing.more = true;
        break;
      }
      ProjectionLag lag = measure_projection_lag(*stores.events, entry, now);
      listing.rows.push_back({std::move(entry), std::move(lag)});
    }
    if (!page.next) {
      break;
    }
    request.after = std::move(page.next);
  }
  return listing;
}

nlohmann::json projection_status_json(const ProjectionStatusRow& row) {
  const auto or_null = [](const auto& value) {
    return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
  };
  const ProjectionLag& lag = row.lag;
  return {{"consumer_id", row.entry.consumer_id},
          {"tenant", row.entry.tenant.is_untenanted() ? nlohmann::json(nullptr)
                                                      : nlohmann::json(row.entry.tenant.value())},
          {"checkpoint", row.entry.position},
          {"next_position", lag.cursor ? or_null(lag.cursor->position()) : nlohmann::json(nullptr)},
          {"head", or_null(lag.head)},
          {"lag_positions", or_null(lag.lag_positions)},
          {"oldest_pending_at",
           lag.oldest_pending ? nlohmann::json(format_timestamp(*lag.oldest_pending)) : nullptr},
          {"lag_seconds", static_cast<double>(lag.lag_time.count()) / 1e6},
          {"caught_up", lag.cursor.has_value() && !lag.oldest_pending},
          {"updated_at", format_timestamp(row.entry.updated_at)},
          {"problem", lag.cursor ? nlohmann::json(nullptr)
                                 : nlohmann::json("not a cursor of this event store's feed")}};
}

void add_projections_status_subcommand(CLI::App& group) {
  auto args = std::make_shared<ProjectionsStatusArgs>();
  CLI::App* cmd = group.add_subcommand(
      "status",
      "Each feed consumer's checkpoint against the feed's head: its lag in positions (a feed "
      "of global positions) and in time (the oldest event past its checkpoint), and when it "
      "last moved");
  cmd->add_option("--store", args->store,
                  "The consumers' inbox store URL (their checkpoints), e.g. "
                  "sqlite:///var/lib/app/app.db")
      ->required();
  cmd->add_option("--events", args->events,
                  "The event store URL whose feed they read (default: --store)");
  cmd->add_option("--consumer", args->consumer, "Only this consumer id");
  cmd->add_option("--tenant", args->tenant,
                  "Only the checkpoints of this tenant's consumers (default: every one, the "
                  "whole-feed consumers' included)");
  cmd->add_option("--limit", args->limit, "Checkpoints shown at most (1 to 1000000)")
      ->check(whole_count())
      ->capture_default_str();
  cmd->add_flag("--json", args->json, "Print one JSON object");
  cmd->callback([args] { run_projections_status(*args); });
}

}  // namespace docket::tool
