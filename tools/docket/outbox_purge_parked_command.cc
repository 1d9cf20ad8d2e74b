// docket outbox purge-parked: deletes the parked messages whose last attempt became due
// more than --older-than ago (Outbox::purge_parked_before, --batch rows a short
// transaction), for parked messages an operator has given up on and wants gone rather
// than kept as skipped. Their ordering keys are released. --dry-run counts what it
// would delete (through OutboxStore::parked(), a page at a time) and changes nothing.
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "count_option.h"
#include "docket/core/clock.h"
#include "docket/outbox/outbox.h"
#include "docket/stores/printable_store_url.h"
#include "duration_option.h"
#include "outbox_command.h"
#include "outbox_command_support.h"
#include "usage_error.h"

namespace docket::tool {
namespace {

constexpr std::uint64_t kPurgeParkedMaxBatch = 10'000;

struct OutboxPurgeParkedArgs {
  std::string store;
  std::string older_than;
  std::uint64_t batch = 1000;
  bool dry_run = false;
  bool json = false;
};

void run_outbox_purge_parked(const OutboxPurgeParkedArgs& args) {
  const std::chrono::microseconds age = parse_duration("--older-than", args.older_than);
  if (args.batch == 0 || args.batch > kPurgeParkedMaxBatch) {
    throw UsageError("outbox purge-parked: --batch is " + std::to_string(args.batch) +
                     "; pass 1 to " + std::to_string(kPurgeParkedMaxBatch) + " rows a transaction");
  }
  const auto store = open_shared_outbox("outbox purge-parked", args.store);
  const Timestamp cutoff = SystemClock::instance().now() - age;
  std::uint64_t count = 0;
  if (args.dry_run) {
    for (std::int64_t after = 0;;) {
      const std::vector<OutboxRecord> page = store->parked(after, kParkedPageSize);
      if (page.empty())
        break;
      for (const OutboxRecord& record : page) {
        after = record.sequence;
        count += record.next_attempt_at < cutoff ? 1 : 0;
      }
    }
  } else {
    count = Outbox(*store).purge_parked_before(cutoff, static_cast<std::size_t>(args.batch));
  }
  if (args.json) {
    std::cout << json_line({{"store", printable_store_url(args.store)},
                            {"cutoff", format_timestamp(cutoff)},
                            {"dry_run", args.dry_run},
                            {args.dry_run ? "would_delete" : "deleted", count}})
              << '\n';
    return;
  }
  std::cout << (args.dry_run ? "would delete " : "deleted ") << count << " parked message"
            << (count == 1 ? "" : "s") << " of " << printable_store_url(args.store)
            << " whose last attempt became due before " << format_timestamp(cutoff)
            << (args.dry_run ? " (dry run: nothing changed)" : "") << '\n';
}

}  // namespace

void add_outbox_purge_parked_subcommand(CLI::App& outbox_group) {
  auto args = std::make_shared<OutboxPurgeParkedArgs>();
  CLI::App* cmd = outbox_group.add_subcommand(
      "purge-parked",
      "Delete the parked messages whose last attempt became due more than --older-than ago, "
      "in short transactions: they are never published and leave no trace (skip keeps one), "
      "and their ordering keys are released.");
  cmd->add_option("--store", args->store, "Store URL, e.g. sqlite:///var/lib/app/app.db")
      ->required();
  cmd->add_option("--older-than", args->older_than, "Age of the last attempt: 90s, 15m, 12h, 30d")
      ->check(duration_text())
      ->required();
  cmd->add_option("--batch", args->batch, "Rows deleted a transaction (1 to 10000)")
      ->check(whole_count())
      ->default_val(1000);
  cmd->add_flag("--dry-run", args->dry_run, "Count what would be deleted; change nothing");
  cmd->add_flag("--json", args->json, "Print one JSON object");
  cmd->callback([args] { run_outbox_purge_parked(*args); });
}

}  // namespace docket::tool
