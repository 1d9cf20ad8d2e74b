// docket projections reset: sets one feed consumer's checkpoint to a position of the
// feed, so that it next reads from there. It moves where the consumer reads, nothing
// else: an event it already processed is still skipped as a duplicate when read again
// (its dedup row remains; `projections rebuild` is what runs handlers again), and an
// event it skips over (a position past its checkpoint) is never handled.
//
// Refused, with nothing changed: --to negative or not a number (usage errors, before
// any store is opened); a position past the feed's head + 1 (the whole feed's: the
// consumer would skip events appended later); a consumer with no checkpoint in the
// scope, unless --create; a checkpoint of another feed; a position other than 0 (the
// start) on a feed of opaque cursors, which has no positions. --dry-run reads the same
// and says what it would set.
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "count_option.h"
#include "docket/core/error.h"
#include "projections_command.h"
#include "usage_error.h"

namespace docket::tool {
namespace {

struct ProjectionsResetArgs {
  std::string store;
  std::optional<std::string> events;
  std::string consumer;
  std::int64_t to = 0;
  std::optional<std::string> tenant;
  bool create = false;
  bool dry_run = false;
  bool json = false;
};

void run_projections_reset(const ProjectionsResetArgs& args) {
  constexpr std::string_view kCommand = "projections reset";
  if (args.to < 0) {
    throw UsageError("projections reset: --to is " + std::to_string(args.to) +
                     "; pass the global position the consumer is to read next: 0 (or 1) for "
                     "the start, at most the feed's head + 1 (`projections status` shows it)");
  }
  require_projection_consumer(kCommand, args.consumer);
  const TenantId scope = projection_scope(kCommand, args.tenant);
  ProjectionStores stores = open_projection_stores(kCommand, args.store, args.events);
  const std::optional<FeedCursor> from =
      read_projection_checkpoint(kCommand, stores, args.consumer, scope, args.create);
  const bool positions = stores.events->capabilities().feed == FeedKind::kGlobalPositions;
  std::optional<std::int64_t> head;
  if (positions) {
    head = stores.events->last_position();
    if (args.to > *head + 1) {
      throw InvalidInputError("projections reset: --to " + std::to_string(args.to) +
                              " is beyond the feed's head: its newest event is at position " +
                              std::to_string(*head) +
                              ", so the consumer would skip events "
                              "appended later. Nothing was changed. Pass at most " +
                              std::to_string(*head + 1) + " (caught up)");
    }
  } else if (args.to != 0) {
    throw InvalidInputError(
        "projections reset: the " + std::string(stores.events->provider_name()) +
        " event store's feed has opaque cursors, not positions: only --to 0 (the start) can "
        "be set. Nothing was changed");
  }
  const FeedCursor to = positions ? FeedCursor::at_position(args.to) : FeedCursor::start();
  const bool changed = !args.dry_run && (!from || *from != to);
  if (changed) {
    const TenantScope in_scope(scope);
    stores.inbox->checkpoints().set(args.consumer, to.text());
  }
  if (args.json) {
    std::cout << nlohmann::json{{"store", stores.inbox_url},
                                {"events", stores.events_url},
                                {"consumer_id", args.consumer},
                                {"tenant", args.tenant ? nlohmann::json(*args.tenant)
                                                       : nlohmann::json(nullptr)},
                                {"from", from ? nlohmann::json(from->text()) : nullptr},
                                {"to", to.text()},
                                {"head", head ? nlohmann::json(*head) : nullptr},
                                {"dry_run", args.dry_run},
                                {"changed", changed}}
                     .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
              << '\n';
    return;
  }
  const std::string what = "consumer '" + args.consumer + "' (" + describe_projection_scope(scope) +
                           "): checkpoint " + (from ? from->text() : std::string("(none)")) +
                           " -> " + to.text() +
                           (head ? " (feed head " + std::to_string(*head) + ")" : "");
  if (args.dry_run) {
    std::cout << "dry run, nothing changed: would set " << what << '\n';
  } else {
    std::cout << (changed ? "set " : "unchanged, already there: ") << what << '\n';
  }
}

}  // namespace

void add_projections_reset_subcommand(CLI::App& group) {
  auto args = std::make_shared<ProjectionsResetArgs>();
  CLI::App* cmd = group.add_subcommand(
      "reset",
      "Set one feed consumer's checkpoint: the global position it reads next (0: the start). "
      "Events it already processed stay skipped as duplicates (use rebuild to run its handlers "
      "again); events between the old and a later position are never handled. Stop the "
      "consumer first: a running one sets its own checkpoint after each page");
  cmd->add_option("--store", args->store, "The consumer's inbox store URL (its checkpoint)")
      ->required();
  cmd->add_option("--events", args->events,
                  "The event store URL whose feed it reads (default: --store)");
  cmd->add_option("--consumer", args->consumer, "The consumer id")->required();
  cmd->add_option("--to", args->to,
                  "The global position to read next: 0 (the start) to the feed's head + 1")
      ->required()
      ->check(whole_number());
  cmd->add_option("--tenant", args->tenant,
                  "The checkpoint of the consumer of this tenant's events (default: the "
                  "whole-feed consumer's)");
  cmd->add_flag("--create", args->create,
                "Set a checkpoint for a consumer that has none yet (else refused)");
  cmd->add_flag("--dry-run", args->dry_run, "Say what would be set; change nothing");
  cmd->add_flag("--json", args->json, "Print one JSON object");
  cmd->callback([args] { run_projections_reset(*args); });
}

}  // namespace docket::tool
