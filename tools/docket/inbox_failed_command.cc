// docket inbox failed: the claim inbox entries whose handler failed, with their last
// error, how many times they failed and when they are next due for a retry, read
// through ClaimInboxStore::entries() a page at a time (failed_entries.h).
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "count_option.h"
#include "docket/core/error.h"
#include "docket/core/utf8.h"
#include "docket/stores/open_store.h"
#include "docket/stores/printable_store_url.h"
#include "failed_entries.h"
#include "inbox_command.h"
#include "shared_store.h"
#include "usage_error.h"

namespace docket::tool {
namespace {

// Entries shown when --limit is not given, and the most --limit takes.
constexpr std::uint64_t kDefaultLimit = 100;
constexpr std::uint64_t kMaxLimit = 1'000'000;

struct FailedArgs {
  std::string store;
  std::optional<std::string> tenant;
  std::optional<std::string> error_like;
  std::uint64_t limit = kDefaultLimit;
  bool json = false;
};

std::string time_text(const std::optional<Timestamp>& t) {
  return t ? format_timestamp(*t) : std::string();
}

void run_failed(const FailedArgs& args) {
  // Every check before the store is opened: a refused command reads nothing.
  if (args.limit == 0 || args.limit > kMaxLimit) {
    throw UsageError("inbox failed: --limit is " + std::to_string(args.limit) + "; give 1 to " +
                     std::to_string(kMaxLimit));
  }
  if (args.error_like) {
    if (args.error_like->empty()) {
      throw UsageError(
          "inbox failed: --error-like is empty; pass text the errors to list contain, or "
          "leave the option out");
    }
    require_valid_utf8("inbox failed: --error-like", *args.error_like);
  }
  const std::optional<TenantId> tenant =
      args.tenant ? std::optional(TenantId(*args.tenant)) : std::nullopt;
  const auto store = open_claim_inbox_store(args.store);
  require_service_store("inbox failed", args.store, store->capabilities(), "claim inbox");
  std::vector<ClaimEntry> shown;
  bool more = false;
  for_each_failed_entry(*store, tenant, args.error_like, [&](ClaimEntry& entry) {
    if (shown.size() == args.limit) {
      more = true;  // one match past the limit: enough to say there are more
      return false;
    }
    shown.push_back(std::move(entry));
    return true;
  });
  if (args.json) {
    nlohmann::json entries = nlohmann::json::array();
    for (const ClaimEntry& entry : shown) {
      entries.push_back(failed_entry_json(entry));
    }
    std::cout << nlohmann::json{{"store", printable_store_url(args.store)},
                                {"tenant", tenant ? nlohmann::json(tenant->value())
                                                  : nlohmann::json(nullptr)},
                                {"entries", std::move(entries)},
                                {"more", more}}
                     .dump(-1, ' ', false, nlohmann::json::error_handler_t::strict)
              << '\n';
    return;
  }
  std::cout << "claim inbox   " << printable_store_url(args.store) << '\n'
            << "tenant        " << (tenant ? tenant->value() : "(all)") << '\n'
            << "failed        " << shown.size() << (more ? " shown, more match" : "") << '\n';
  for (const ClaimEntry& e : shown) {
    std::cout << '\n'
              << "message       " << e.key.message_id() << '\n'
              << "  tenant      " << e.key.tenant().value() << '\n'
              << "  handler     " << e.key.handler_type() << '\n'
              << "  failures    " << e.retry_count << '\n'
              << "  next due    " << time_text(e.next_attempt_at) << '\n'
              << "  last error  " << e.last_error.value_or("") << '\n';
  }
}

}  // namespace

void add_inbox_failed_subcommand(CLI::App& inbox_group) {
  auto args = std::make_shared<FailedArgs>();
  CLI::App* cmd = inbox_group.add_subcommand(
      "failed",
      "Claim inbox entries whose handler failed: their last error, failures so far and when "
      "they are next due for a retry.");
  cmd->add_option("--store", args->store, "Store URL, e.g. sqlite:///var/lib/app/app.db")
      ->required();
  cmd->add_option("--tenant", args->tenant, "Only this tenant's entries (default: every tenant)");
  cmd->add_option("--error-like", args->error_like,
                  "Only entries whose last error contains this text (case-sensitive)");
  cmd->add_option("--limit", args->limit, "Entries shown at most (1 to 1000000)")
      ->check(whole_count())
      ->capture_default_str();
  cmd->add_flag("--json", args->json, "Print one JSON object");
  cmd->callback([args] { run_failed(*args); });
}

}  // namespace docket::tool
