// docket inbox stats: entries of a claim inbox by status, for one tenant or all.
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "docket/stores/open_store.h"
#include "docket/stores/printable_store_url.h"
#include "inbox_command.h"

namespace docket::tool {
namespace {

struct StatsArgs {
  std::string store;
  std::optional<std::string> tenant;
  bool json = false;
};

nlohmann::json counts_json(const ClaimCounts& c) {
  return {{"received", c.received},
          {"processing", c.processing},
          {"processed", c.processed},
          {"failed", c.failed},
          {"failed_due", c.failed_due},
          {"oldest_pending", c.oldest_pending ? nlohmann::json(format_timestamp(*c.oldest_pending))
                                              : nlohmann::json(nullptr)}};
}

void run_stats(const StatsArgs& args) {
  // The tenant is checked before the store is opened: a bad one writes nothing.
  const std::optional<TenantId> tenant =
      args.tenant ? std::optional(TenantId(*args.tenant)) : std::nullopt;
  const auto store = open_claim_inbox_store(args.store);
  const ClaimCounts counts = store->counts(tenant);
  if (args.json) {
    nlohmann::json out = counts_json(counts);
    out["store"] = printable_store_url(args.store);
    out["tenant"] = tenant ? nlohmann::json(tenant->value()) : nlohmann::json(nullptr);
    std::cout << out.dump() << '\n';
    return;
  }
  std::cout << "claim inbox   " << printable_store_url(args.store) << '\n'
            << "tenant        " << (tenant ? tenant->value() : "(all)") << '\n'
            << "received      " << counts.received << '\n'
            << "processing    " << counts.processing << '\n'
            << "processed     " << counts.processed << '\n'
            << "failed        " << counts.failed << "   (due for retry: " << counts.failed_due
            << ")\n"
            << "oldest pending "
            << (counts.oldest_pending ? format_timestamp(*counts.oldest_pending) : "(none)")
            << '\n';
}

}  // namespace

void add_inbox_stats_subcommand(CLI::App& inbox_group) {
  auto args = std::make_shared<StatsArgs>();
  CLI::App* cmd = inbox_group.add_subcommand(
      "stats",
      "Entries of a claim inbox by status (received, processing, processed, failed), the "
      "oldest pending entry, and failed entries due for retry.");
  cmd->add_option("--store", args->store, "Store URL, e.g. sqlite:///var/lib/app/app.db")
      ->required();
  cmd->add_option("--tenant", args->tenant, "Only this tenant's entries (default: every tenant)");
  cmd->add_flag("--json", args->json, "Print one JSON object");
  cmd->callback([args] { run_stats(*args); });
}

}  // namespace docket::tool
