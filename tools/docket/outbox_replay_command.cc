// docket outbox replay: makes parked messages pending again (attempts reset, due now)
// through OutboxStore::replay(), one named by --id or every one the filters match
// with --all, with --dry-run to see what would be replayed.
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "docket/core/clock.h"
#include "docket/stores/printable_store_url.h"
#include "outbox_command.h"
#include "outbox_command_support.h"
#include "progress_line.h"
#include "usage_error.h"

namespace docket::tool {
namespace {

struct OutboxReplayArgs {
  std::string store;
  std::optional<std::string> id;
  bool all = false;
  ParkedFilterOptions filters;
  bool dry_run = false;
  bool json = false;
};

// What a replay did, for either form.
struct OutboxReplayOutcome {
  std::vector<std::string> ids;      // matched: replayed, or would be on a dry run
  std::size_t replayed = 0;          // made pending by this run
  std::size_t no_longer_parked = 0;  // matched, but replayed or skipped by another meanwhile
};

void print_outbox_replay(const OutboxReplayArgs& args, const std::optional<ParkedFilter>& filter,
                         const OutboxReplayOutcome& outcome) {
  if (args.json) {
    nlohmann::json out{{"store", printable_store_url(args.store)},
                       {"dry_run", args.dry_run},
                       {"matched", outcome.ids.size()},
                       {"replayed", outcome.replayed},
                       {"no_longer_parked", outcome.no_longer_parked},
                       {"ids", outcome.ids}};
    if (args.id) {
      out["id"] = *args.id;
    } else {
      out["filters"] = filter->to_json();
    }
    std::cout << json_line(out) << '\n';
    return;
  }
  const std::string scope = args.id ? "message " + *args.id
                                    : std::to_string(outcome.ids.size()) + " parked " +
                                          (outcome.ids.size() == 1 ? "message" : "messages") +
                                          " (" + filter->describe() + ")";
  if (args.dry_run) {
    std::cout << "would replay " << scope << " of " << printable_store_url(args.store)
              << " (dry run: nothing replayed)\n";
    if (!args.id) {
      for (const std::string& id : outcome.ids) {
        std::cout << "  " << id << '\n';
      }
    }
    return;
  }
  std::cout << "replayed " << outcome.replayed << " of " << scope << " of "
            << printable_store_url(args.store) << ": pending again, attempts reset, due now\n";
}

OutboxReplayOutcome replay_one(OutboxStore& store, const OutboxReplayArgs& args) {
  repair_parked_message(store, "outbox replay", *args.id, ParkedRepair::kReplay, args.dry_run);
  return {.ids = {*args.id}, .replayed = args.dry_run ? 0U : 1U};
}

OutboxReplayOutcome replay_all(OutboxStore& store, const OutboxReplayArgs& args,
                               const ParkedFilter& filter) {
  // The matches are read first, then replayed: the count for progress is known, and a
  // message replayed, failed and parked again during the run is not replayed twice.
  OutboxReplayOutcome outcome;
  for_each_parked(store, filter, [&](const OutboxRecord& record) {
    outcome.ids.push_back(record.id);
    return !filter.limit() || outcome.ids.size() < *filter.limit();
  });
  if (outcome.ids.empty()) {
    std::cerr << "outbox replay: no parked message matches (" << filter.describe()
              << "); nothing was replayed\n";
    return outcome;
  }
  if (args.dry_run) {
    return outcome;
  }
  ProgressLine progress("replayed", outcome.ids.size(), kProgressFrom);
  std::size_t through = 0;
  for (const std::string& id : outcome.ids) {
    if (store.replay(id, SystemClock::instance().now())) {
      ++outcome.replayed;
    } else {
      ++outcome.no_longer_parked;
    }
    progress(++through);
  }
  if (outcome.no_longer_parked > 0) {
    std::cerr << "outbox replay: " << outcome.no_longer_parked
              << " of the matched messages were no longer parked when reached (replayed or "
                 "skipped by someone else meanwhile); they were left as they were\n";
  }
  return outcome;
}

void run_outbox_replay(const OutboxReplayArgs& args) {
  if (args.id.has_value() == args.all) {
    throw UsageError(
        "outbox replay: pass exactly one of --id ID (one parked message) and --all (every "
        "parked message the filters match)");
  }
  std::optional<ParkedFilter> filter;
  if (args.id) {
    if (args.filters.any()) {
      throw UsageError(
          "outbox replay: --id names one message; the filters (--error-like, --destination, "
          "--since, --limit) go with --all");
    }
    check_message_id("outbox replay", *args.id);
  } else {
    filter.emplace("outbox replay", args.filters, SystemClock::instance().now());
  }
  const auto store = open_shared_outbox("outbox replay", args.store);
  const OutboxReplayOutcome outcome =
      args.id ? replay_one(*store, args) : replay_all(*store, args, *filter);
  print_outbox_replay(args, filter, outcome);
}

}  // namespace

void add_outbox_replay_subcommand(CLI::App& outbox_group) {
  auto args = std::make_shared<OutboxReplayArgs>();
  CLI::App* cmd = outbox_group.add_subcommand(
      "replay",
      "Make parked messages pending again (attempts reset, due now), so that relays publish "
      "them: one by --id, or with --all every parked message the filters match. An --id that "
      "names no parked message is refused (exit 1) and nothing is changed.");
  cmd->add_option("--store", args->store, "Store URL, e.g. sqlite:///var/lib/app/app.db")
      ->required();
  cmd->add_option("--id", args->id, "The parked message to replay (its outbox id)");
  cmd->add_flag("--all", args->all, "Every parked message the filters match (all of them without)");
  add_parked_filter_options(*cmd, args->filters,
                            "With --all: replay at most N messages, oldest first (1..1000000; "
                            "default: every match)");
  cmd->add_flag("--dry-run", args->dry_run, "Show what would be replayed; change nothing");
  cmd->add_flag("--json", args->json, "Print one JSON object");
  cmd->callback([args] { run_outbox_replay(*args); });
}

}  // namespace docket::tool
