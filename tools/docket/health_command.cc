// docket health: checks what should alarm an operator before users notice, against
// thresholds, each on a line of its own ("ok ..." or "FAIL ..."), and exits 1 when one
// fails:
//   outbox backlog       the message due longest has waited at most --max-outbox-age
//                        (OutboxStore::stats: due, not in backoff, not scheduled)
//   parked messages      at most --max-parked (default 0: any parked message fails)
//   projection C         for each --projection C: its feed consumer's checkpoint lags
//                        the feed by at most --max-projection-lag in time (the oldest
//                        event past it; projections_command.h)
//   host                 with --host-file: a ServiceHost's health file, rewritten within
//                        --max-host-age, the host running and no loop restarting
//                        (host_health_check.h)
// --store, --host-file or both; the store's checks run only with --store.
// Projections are checked by name only: the checkpoint store also holds the outbox
// pull consumers' checkpoints, which are not positions of the event feed. A store that
// cannot be reached or read (InfrastructureError) fails the checks that need it, naming
// why, and the others still run; a URL docket cannot use (a store private to the
// process, a malformed URL) is refused as by every command. Every check of the command
// line is made before a store is opened.
#include "health_command.h"

#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "count_option.h"
#include "docket/core/clock.h"
#include "docket/core/error.h"
#include "docket/outbox/outbox_stats.h"
#include "docket/stores/open_store.h"
#include "docket/stores/printable_store_url.h"
#include "duration_option.h"
#include "host_health_check.h"
#include "outbox_command_support.h"
#include "projections_command.h"
#include "providers/registry.h"
#include "shared_store.h"
#include "usage_error.h"

namespace docket::tool {
namespace {

struct HealthArgs {
  std::string store;
  std::string host_file;
  std::string max_host_age = "30s";
  std::optional<std::string> events;
  std::string max_outbox_age = "30s";
  std::uint64_t max_parked = 0;
  std::string max_projection_lag = "1m";
  std::vector<std::string> projections;
  bool json = false;
};

struct HealthCheck {
  std::string name;
  bool ok = false;
  std::string detail;
};

void check_outbox(const HealthArgs& args, std::chrono::microseconds max_age,
                  std::vector<HealthCheck>& checks) {
  try {
    const auto store = open_shared_outbox("health", args.store);
    const Timestamp now = SystemClock::instance().now();
    const OutboxStats stats = store->stats(now);
    const std::chrono::microseconds age =
        stats.oldest_due_created_at ? std::chrono::duration_cast<std::chrono::microseconds>(
                                          now - *stats.oldest_due_created_at)
                                    : std::chrono::microseconds(0);
    checks.push_back({"outbox backlog", age <= max_age,
                      stats.total.due == 0
                          ? "no message is due (max " + format_projection_lag(max_age) + ")"
                          : std::to_string(stats.total.due) + " due, the oldest waiting " +
                                format_projection_lag(age) + " (max " +
                                format_projection_lag(max_age) + ")"});
    checks.push_back({"parked messages", stats.total.parked <= args.max_parked,
                      std::to_string(stats.total.parked) + " parked (max " +
                          std::to_string(args.max_parked) + ")"});
  } catch (const InfrastructureError& error) {
    checks.push_back({"outbox backlog", false, std::string("cannot read: ") + error.what()});
    checks.push_back({"parked messages", false, "not read (the outbox could not be)"});
  }
}

// What the store's server says an acknowledged commit survives, where its provider
// reads that from the server (Redis: appendonly, appendfsync): a statement, which fails
// only when it cannot be read.
void check_durability(const HealthArgs& args, std::vector<HealthCheck>& checks) {
  const providers::ProviderRegistration* provider = providers::Registry::builtin().find(args.store);
  if (provider == nullptr || provider->durability == nullptr)
    return;
  try {
    checks.push_back({"durability", true, provider->durability(args.store)});
  } catch (const Error& error) {
    checks.push_back({"durability", false, std::string("cannot read: ") + error.what()});
  }
}

void check_projections(const HealthArgs& args, std::chrono::microseconds max_lag,
                       std::vector<HealthCheck>& checks) {
  if (args.projections.empty())
    return;
  std::optional<ProjectionStores> stores;
  try {
    stores.emplace(open_projection_stores("health", args.store, args.events));
  } catch (const InfrastructureError& error) {
    for (const std::string& consumer : args.projections)
      checks.push_back(
          {"projection " + consumer, false, std::string("cannot read: ") + error.what()});
    return;
  }
  for (const std::string& consumer : args.projections) {
    const std::string name = "projection " + consumer;
    try {
      const CheckpointPage page = stores->inbox->checkpoints().list(
          {.consumer_id = consumer, .tenant = TenantId::untenanted(), .limit = 1});
      if (page.entries.empty()) {
        checks.push_back({name, false,
                          "no whole-feed checkpoint: the consumer has not run on this store, or "
                          "the id is wrong"});
        continue;
      }
      const ProjectionLag lag = measure_projection_lag(*stores->events, page.entries.front(),
                                                       SystemClock::instance().now());
      if (!lag.cursor) {
        checks.push_back({name, false, "its checkpoint is no cursor of this event store's feed"});
        continue;
      }
      checks.push_back({name, lag.lag_time <= max_lag,
                        (lag.oldest_pending ? "lags " + format_projection_lag(lag.lag_time)
                                            : std::string("caught up")) +
                            " (max " + format_projection_lag(max_lag) + ")"});
    } catch (const InfrastructureError& error) {
      checks.push_back({name, false, std::string("cannot read: ") + error.what()});
    }
  }
}

void run_health(const HealthArgs& args) {
  const std::chrono::microseconds max_age = parse_duration("--max-outbox-age", args.max_outbox_age);
  const std::chrono::microseconds max_lag =
      parse_duration("--max-projection-lag", args.max_projection_lag);
  for (const std::string& consumer : args.projections)
    require_projection_consumer("health", consumer);
  const std::chrono::microseconds max_host_age =
      parse_duration("--max-host-age", args.max_host_age);
  if (args.store.empty() && args.host_file.empty()) {
    throw UsageError(
        "health: nothing to check; pass --store URL (the outbox and projections), "
        "--host-file PATH (a service host's health file), or both");
  }
  if (args.store.empty() && !args.projections.empty()) {
    throw UsageError("health: --projection needs --store, the store its checkpoints are in");
  }
  std::vector<HealthCheck> checks;
  if (!args.host_file.empty()) {
    const HostCheck host =
        check_host_health_file(args.host_file, max_host_age, SystemClock::instance().now());
    checks.push_back({"host", host.ok, host.detail});
  }
  if (!args.store.empty()) {
    check_outbox(args, max_age, checks);
    check_durability(args, checks);
    check_projections(args, max_lag, checks);
  }
  bool healthy = true;
  for (const HealthCheck& check : checks)
    healthy = healthy && check.ok;
  if (args.json) {
    nlohmann::json list = nlohmann::json::array();
    for (const HealthCheck& check : checks)
      list.push_back({{"check", check.name}, {"ok", check.ok}, {"detail", check.detail}});
    std::cout << json_line({{"store", args.store.empty()
                                          ? nlohmann::json(nullptr)
                                          : nlohmann::json(printable_store_url(args.store))},
                            {"host_file", args.host_file.empty() ? nlohmann::json(nullptr)
                                                                 : nlohmann::json(args.host_file)},
                            {"healthy", healthy},
                            {"checks", std::move(list)}})
              << '\n';
  } else {
    for (const HealthCheck& check : checks)
      std::cout << (check.ok ? "ok   " : "FAIL ") << check.name << ": " << check.detail << '\n';
  }
  if (!healthy) {
    std::string failed;
    for (const HealthCheck& check : checks) {
      if (!check.ok)
        failed += (failed.empty() ? "" : ", ") + check.name;
    }
    // Exit status 1, as for a store that cannot be reached: a probe needs 0 or not 0.
    throw InfrastructureError("health: failed: " + failed);
  }
}

}  // namespace

void add_health_command(CLI::App& app) {
  auto args = std::make_shared<HealthArgs>();
  CLI::App* cmd = app.add_subcommand(
      "health",
      "Check a service against thresholds, one line a check, for a container probe: its "
      "service host's health file, the outbox's backlog age, its parked messages, named "
      "projections' lag, and what the store's server says a commit survives (Redis). Exit 0 "
      "when every check holds, 1 when one fails.");
  cmd->add_option("--store", args->store, "Store URL, e.g. sqlite:///var/lib/app/app.db");
  cmd->add_option("--host-file", args->host_file,
                  "A service host's health file (ServiceHostSettings::health_file) to check");
  cmd->add_option("--max-host-age", args->max_host_age,
                  "Oldest the host's health file may be (90s, 15m, 12h, 30d)")
      ->check(duration_text())
      ->default_str("30s");
  cmd->add_option("--events", args->events,
                  "The event store the projections read, when another database than --store");
  cmd->add_option("--max-outbox-age", args->max_outbox_age,
                  "Longest a due message may wait (90s, 15m, 12h, 30d)")
      ->check(duration_text())
      ->default_str("30s");
  cmd->add_option("--max-parked", args->max_parked, "Most parked messages allowed")
      ->check(whole_count())
      ->default_val(0);
  cmd->add_option("--max-projection-lag", args->max_projection_lag,
                  "Longest a --projection may lag the feed (90s, 15m, 12h, 30d)")
      ->check(duration_text())
      ->default_str("1m");
  cmd->add_option("--projection", args->projections,
                  "A feed consumer (its consumer id, a whole-feed consumer) to check; repeatable");
  cmd->add_flag("--json", args->json, "Print one JSON object");
  cmd->callback([args] { run_health(*args); });
}

}  // namespace docket::tool
