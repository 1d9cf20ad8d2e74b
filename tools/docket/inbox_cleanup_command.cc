// docket inbox cleanup: deletes a claim inbox's processed entries older than a
// duration, for one tenant or every tenant, in bounded batches.

#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "count_option.h"
#include "docket/core/error.h"
#include "docket/stores/open_store.h"
#include "docket/stores/printable_store_url.h"
#include "duration_option.h"
#include "inbox_command.h"
#include "progress_line.h"
#include "usage_error.h"

namespace docket::tool {
namespace {

// Entries deleted per request: one short transaction each.
constexpr std::size_t kDefaultBatch = 1000;
constexpr std::size_t kMaxBatch = 100'000;

struct CleanupArgs {
  std::string store;
  std::string older_than;
  std::optional<std::string> tenant;
  bool all_tenants = false;
  bool dry_run = false;
  std::size_t batch = kDefaultBatch;
  bool json = false;
};

// Progress on stderr: one line rewritten in place on a terminal, else one line per
// tenth of the work, so a log stays short.

void run_cleanup(const CleanupArgs& args) {
  const auto older_than = parse_duration("--older-than", args.older_than);
  if (args.batch == 0 || args.batch > kMaxBatch) {
    throw UsageError("inbox cleanup: --batch is " + std::to_string(args.batch) + "; pass 1 to " +
                     std::to_string(kMaxBatch) + " (entries deleted per request)");
  }
  if (args.tenant.has_value() == args.all_tenants) {
    throw UsageError(
        "inbox cleanup: pass exactly one of --tenant T (one tenant's entries) and --all-tenants");
  }
  const std::optional<TenantId> tenant =
      args.tenant ? std::optional(TenantId(*args.tenant)) : std::nullopt;
  const auto store = open_claim_inbox_store(args.store);
  const Timestamp cutoff = SystemClock::instance().now() - older_than;
  const std::uint64_t cleanable = store->count_cleanable(tenant, cutoff);
  std::uint64_t removed = 0;
  if (!args.dry_run && cleanable > 0) {
    ProgressLine progress("removed", cleanable);
    const auto report = [&](std::uint64_t so_far) { progress(so_far); };
    removed = tenant ? store->cleanup_processed(*tenant, cutoff, args.batch, report)
                     : store->cleanup_all_tenants_processed(cutoff, args.batch, report);
  }
  const std::string scope = tenant ? "tenant " + tenant->value() : "every tenant";
  if (args.json) {
    std::cout << nlohmann::json{{"store", printable_store_url(args.store)},
                                {"tenant", tenant ? nlohmann::json(tenant->value())
                                                  : nlohmann::json(nullptr)},
                                {"cutoff", format_timestamp(cutoff)},
                                {"dry_run", args.dry_run},
                                {"cleanable", cleanable},
                                {"removed", removed}}
                     .dump()
              << '\n';
    return;
  }
  if (args.dry_run) {
    std::cout << "would remove " << cleanable << " processed entries of " << scope
              << " processed before " << format_timestamp(cutoff)
              << " (dry run: nothing removed)\n";
  } else {
    std::cout << "removed " << removed << " processed entries of " << scope << " processed before "
              << format_timestamp(cutoff) << '\n';
  }
}

}  // namespace

void add_inbox_cleanup_subcommand(CLI::App& inbox_group) {
  auto args = std::make_shared<CleanupArgs>();
  CLI::App* cmd = inbox_group.add_subcommand(
      "cleanup",
      "Delete processed entries of a claim inbox older than a duration (processed strictly "
      "before now - DURATION), for one tenant or every tenant. Entries that are received, "
      "processing or failed are never deleted.");
  cmd->add_option("--store", args->store, "Store URL, e.g. sqlite:///var/lib/app/app.db")
      ->required();
  cmd->add_option("--older-than", args->older_than, "Retention: 90s, 15m, 12h, 30d")
      ->check(duration_text())
      ->required();
  cmd->add_option("--tenant", args->tenant, "Only this tenant's entries");
  cmd->add_flag("--all-tenants", args->all_tenants, "Every tenant's entries");
  cmd->add_flag("--dry-run", args->dry_run, "Count what would be removed; remove nothing");
  cmd->add_option("--batch", args->batch, "Entries deleted per request (1..100000, default 1000)")
      ->check(whole_count());
  cmd->add_flag("--json", args->json, "Print one JSON object");
  cmd->callback([args] { run_cleanup(*args); });
}

}  // namespace docket::tool
