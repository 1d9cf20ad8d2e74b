// docket projections rebuild: runs one feed consumer's handlers again over every event
// of its feed. Two writes, in this order:
//   1. every dedup row of the consumer id in the checkpoint's scope is deleted, in
//      batches of --batch rows, each its own short transaction
//      (InboxStore::purge_consumer): a whole-feed consumer's rows of every tenant (its
//      dedup keys carry each event's tenant), one tenant's consumer's rows of that
//      tenant; without this the events would be skipped as duplicates;
//   2. its checkpoint is set to the start (0).
// A failure in 1 leaves the checkpoint where it was: run the command again. The
// handlers then see every event again: the read model must be cleared by the user
// first, or its writes must be idempotent upserts (docs/eventsourcing.md). Stop the
// consumer first. Refused, with nothing changed: a consumer with no checkpoint in the
// scope, a checkpoint of another feed. --dry-run reads the checkpoint and says what
// it would delete and set.
#include <unistd.h>

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

constexpr std::size_t kRebuildDefaultBatch = 1000;
constexpr std::size_t kRebuildMaxBatch = 100'000;

struct ProjectionsRebuildArgs {
  std::string store;
  std::optional<std::string> events;
  std::string consumer;
  std::optional<std::string> tenant;
  std::size_t batch = kRebuildDefaultBatch;
  bool dry_run = false;
  bool json = false;
};

// Progress of the deletion on stderr, whose total is not known beforehand: one line
// rewritten in place on a terminal, else a line after batches 1, 2, 4, 8, ... so that
// a log stays short.
class RebuildProgress {
 public:
  RebuildProgress() : terminal_(isatty(STDERR_FILENO) == 1) {}
  ~RebuildProgress() {
    if (terminal_ && batches_ > 0) {
      std::cerr << '\n';
    }
  }
  RebuildProgress(const RebuildProgress&) = delete;
  RebuildProgress& operator=(const RebuildProgress&) = delete;

  void operator()(std::uint64_t deleted) {
    ++batches_;
    if (terminal_) {
      std::cerr << "\rdeleted " << deleted << " dedup rows" << std::flush;
    } else if (batches_ == next_shown_) {
      std::cerr << "deleted " << deleted << " dedup rows\n";
      next_shown_ *= 2;
    }
  }

 private:
  bool terminal_;
  std::uint64_t batches_ = 0;
  std::uint64_t next_shown_ = 1;
};

void run_projections_rebuild(const ProjectionsRebuildArgs& args) {
  constexpr std::string_view kCommand = "projections rebuild";
  if (args.batch == 0 || args.batch > kRebuildMaxBatch) {
    throw UsageError("projections rebuild: --batch is " + std::to_string(args.batch) +
                     "; pass 1 to " + std::to_string(kRebuildMaxBatch) +
                     " (dedup rows deleted per transaction)");
  }
  require_projection_consumer(kCommand, args.consumer);
  const TenantId scope = projection_scope(kCommand, args.tenant);
  ProjectionStores stores = open_projection_stores(kCommand, args.store, args.events);
  const std::optional<FeedCursor> from =
      read_projection_checkpoint(kCommand, stores, args.consumer, scope);
  const std::string rows_scope =
      scope.is_untenanted() ? "of every tenant" : "of tenant '" + scope.value() + "'";
  std::optional<std::uint64_t> deleted;
  if (!args.dry_run) {
    {
      RebuildProgress progress;
      deleted =
          stores.inbox->purge_consumer(args.consumer, projection_feed_tenant(scope), args.batch,
                                       [&](std::uint64_t so_far) { progress(so_far); });
    }
    const TenantScope in_scope(scope);
    stores.inbox->checkpoints().set(args.consumer, FeedCursor::start().text());
  }
  if (args.json) {
    std::cout << nlohmann::json{{"store", stores.inbox_url},
                                {"events", stores.events_url},
                                {"consumer_id", args.consumer},
                                {"tenant", args.tenant ? nlohmann::json(*args.tenant)
                                                       : nlohmann::json(nullptr)},
                                {"from", from->text()},
                                {"to", FeedCursor::start().text()},
                                {"dedup_rows_deleted",
                                 deleted ? nlohmann::json(*deleted) : nlohmann::json(nullptr)},
                                {"dry_run", args.dry_run}}
                     .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
              << '\n';
    return;
  }
  const std::string who =
      "consumer '" + args.consumer + "' (" + describe_projection_scope(scope) + ")";
  if (args.dry_run) {
    std::cout << "dry run, nothing changed: would delete every dedup row of " << who << ' '
              << rows_scope << " and set its checkpoint from " << from->text()
              << " to 0 (the start)\n";
    return;
  }
  std::cout << "rebuilt " << who << ": deleted " << *deleted << " dedup rows " << rows_scope
            << ", checkpoint " << from->text()
            << " -> 0 (the start). Its handlers run again over every event when it next runs\n";
}

}  // namespace

void add_projections_rebuild_subcommand(CLI::App& group) {
  auto args = std::make_shared<ProjectionsRebuildArgs>();
  CLI::App* cmd = group.add_subcommand(
      "rebuild",
      "Run one feed consumer's handlers again over every event: deletes its dedup rows (of "
      "every tenant for a whole-feed consumer, of --tenant's otherwise) and sets its "
      "checkpoint to the start. Clear its read model first, or make its writes idempotent "
      "upserts; stop the consumer first");
  cmd->add_option("--store", args->store,
                  "The consumer's inbox store URL (its checkpoint and dedup rows)")
      ->required();
  cmd->add_option("--events", args->events,
                  "The event store URL whose feed it reads (default: --store)");
  cmd->add_option("--consumer", args->consumer, "The consumer id")->required();
  cmd->add_option("--tenant", args->tenant,
                  "The consumer of this tenant's events (default: the whole-feed consumer)");
  cmd->add_option("--batch", args->batch, "Dedup rows deleted per transaction (1 to 100000)")
      ->check(whole_count())
      ->capture_default_str();
  cmd->add_flag("--dry-run", args->dry_run, "Say what would be deleted and set; change nothing");
  cmd->add_flag("--json", args->json, "Print one JSON object");
  cmd->callback([args] { run_projections_rebuild(*args); });
}

}  // namespace docket::tool
