// docket outbox stats: what an outbox holds, counted by status and destination, the
// pending messages split into due, in backoff and scheduled, and how long the message
// due longest has waited (OutboxStore::stats: one grouped query on SQLite and
// PostgreSQL; a read of the whole outbox, a page at a time, on DynamoDB and Firestore).
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "docket/core/clock.h"
#include "docket/outbox/outbox_stats.h"
#include "docket/stores/printable_store_url.h"
#include "outbox_command.h"
#include "outbox_command_support.h"

namespace docket::tool {
namespace {

struct OutboxStatsArgs {
  std::string store;
  bool json = false;
};

void print_counts_row(const std::string& name, const OutboxCounts& c) {
  char row[400];
  std::snprintf(
      row, sizeof row, "  %-32s %9llu %9llu %10llu %9llu %9llu %9llu %9llu %9llu\n", name.c_str(),
      static_cast<unsigned long long>(c.pending()), static_cast<unsigned long long>(c.due),
      static_cast<unsigned long long>(c.in_backoff), static_cast<unsigned long long>(c.scheduled),
      static_cast<unsigned long long>(c.parked), static_cast<unsigned long long>(c.done),
      static_cast<unsigned long long>(c.skipped), static_cast<unsigned long long>(c.cancelled));
  std::cout << row;
}

void run_outbox_stats(const OutboxStatsArgs& args) {
  const auto store = open_shared_outbox("outbox stats", args.store);
  const Timestamp now = SystemClock::instance().now();
  const OutboxStats stats = store->stats(now);
  // The backlog's age: how long the message due longest has waited (none: nothing due).
  const bool any_due = stats.oldest_due_created_at.has_value();
  const double oldest_due_seconds =
      any_due ? std::chrono::duration<double>(now - *stats.oldest_due_created_at).count() : 0.0;
  if (args.json) {
    nlohmann::json out = outbox_stats_json(stats, now);
    out["store"] = printable_store_url(args.store);
    out["at"] = format_timestamp(now);
    std::cout << json_line(out) << '\n';
    return;
  }
  std::cout << "outbox of " << printable_store_url(args.store) << " at " << format_timestamp(now)
            << "\n  destination                        pending       due in backoff "
               "scheduled    parked      done   skipped cancelled\n";
  print_counts_row("(all)", stats.total);
  for (const auto& [destination, counts] : stats.by_destination)
    print_counts_row(destination, counts);
  if (any_due) {
    char line[200];
    std::snprintf(line, sizeof line, "  oldest due message staged %s, %.3f s ago\n",
                  format_timestamp(*stats.oldest_due_created_at).c_str(), oldest_due_seconds);
    std::cout << line;
  } else {
    std::cout << "  no message is due\n";
  }
}

}  // namespace

void add_outbox_stats_subcommand(CLI::App& outbox_group) {
  auto args = std::make_shared<OutboxStatsArgs>();
  CLI::App* cmd = outbox_group.add_subcommand(
      "stats",
      "Count the outbox's messages by status and destination: pending ones split into due, in "
      "backoff and scheduled, then parked, done, skipped and cancelled, and how long the message "
      "due longest has waited.");
  cmd->add_option("--store", args->store, "Store URL, e.g. sqlite:///var/lib/app/app.db")
      ->required();
  cmd->add_flag("--json", args->json, "Print one JSON object");
  cmd->callback([args] { run_outbox_stats(*args); });
}

}  // namespace docket::tool
