// docket inbox retry: makes failed claim inbox entries due for a retry now through
// ClaimInboxStore::retry_now(), one named by its key or, with --all, every failed entry
// the filters match (read through the store's own entries() a page at a time, as inbox
// failed does), with --dry-run to see what would be retried.
//
// The claim inbox does not hold the message: a retried entry is due for whatever retries
// failed entries (a runner reading failed_due), and nothing is redelivered by this command.
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "docket/core/error.h"
#include "docket/core/utf8.h"
#include "docket/stores/open_store.h"
#include "docket/stores/printable_store_url.h"
#include "failed_entries.h"
#include "inbox_command.h"
#include "progress_line.h"
#include "shared_store.h"
#include "usage_error.h"

namespace docket::tool {
namespace {

struct InboxRetryArgs {
  std::string store;
  std::optional<std::string> tenant;
  std::optional<std::string> message_id;
  std::optional<std::string> handler_type;
  bool all = false;
  std::optional<std::string> error_like;
  bool dry_run = false;
  bool json = false;
};

// What a retry did, for either form.
struct InboxRetryOutcome {
  std::vector<ClaimKey> matched;     // retried, or would be on a dry run
  std::size_t retried = 0;           // made due by this run
  std::size_t no_longer_failed = 0;  // matched, but claimed (or cleaned) by another meanwhile
};

nlohmann::json retry_key_json(const ClaimKey& key) {
  return {{"tenant", key.tenant().value()},
          {"message_id", key.message_id()},
          {"handler_type", key.handler_type()}};
}

// A text option, when given, is not empty (and is UTF-8): usage errors, exit 2.
void require_retry_text(const char* option, const std::optional<std::string>& text) {
  if (text && text->empty()) {
    throw UsageError(std::string("inbox retry: ") + option +
                     " is empty; pass the text, or leave the option out");
  }
}

InboxRetryOutcome retry_one_entry(ClaimInboxStore& store, const ClaimKey& key, bool dry_run) {
  retry_failed_entry(store, "inbox retry", key, dry_run);
  return {.matched = {key}, .retried = dry_run ? 0U : 1U};
}

InboxRetryOutcome retry_all_entries(ClaimInboxStore& store, const InboxRetryArgs& args,
                                    const std::optional<TenantId>& tenant) {
  // The matches are read first, then retried: the count for progress is known, and an
  // entry retried, failed again and so met again by a later page is not retried twice.
  InboxRetryOutcome outcome;
  for_each_failed_entry(store, tenant, args.error_like, [&](const ClaimEntry& entry) {
    outcome.matched.push_back(entry.key);
    return true;
  });
  if (outcome.matched.empty()) {
    std::cerr << "inbox retry: no failed entry matches; nothing was retried\n";
    return outcome;
  }
  if (args.dry_run) {
    return outcome;
  }
  ProgressLine progress("retried", outcome.matched.size(), kProgressFrom);
  std::size_t through = 0;
  for (const ClaimKey& key : outcome.matched) {
    if (store.retry_now(key)) {
      ++outcome.retried;
    } else {
      ++outcome.no_longer_failed;
    }
    progress(++through);
  }
  if (outcome.no_longer_failed > 0) {
    std::cerr << "inbox retry: " << outcome.no_longer_failed
              << " of the matched entries were no longer failed when reached (claimed by a "
                 "delivery meanwhile); they were left as they were\n";
  }
  return outcome;
}

void print_inbox_retry(const InboxRetryArgs& args, const std::optional<TenantId>& tenant,
                       const InboxRetryOutcome& outcome) {
  if (args.json) {
    nlohmann::json entries = nlohmann::json::array();
    for (const ClaimKey& key : outcome.matched) {
      entries.push_back(retry_key_json(key));
    }
    nlohmann::json out{{"store", printable_store_url(args.store)},
                       {"dry_run", args.dry_run},
                       {"matched", outcome.matched.size()},
                       {"retried", outcome.retried},
                       {"no_longer_failed", outcome.no_longer_failed},
                       {"entries", std::move(entries)}};
    if (args.all) {
      out["filters"] = {
          {"tenant", tenant ? nlohmann::json(tenant->value()) : nlohmann::json(nullptr)},
          {"error_like",
           args.error_like ? nlohmann::json(*args.error_like) : nlohmann::json(nullptr)}};
    }
    std::cout << out.dump(-1, ' ', false, nlohmann::json::error_handler_t::strict) << '\n';
    return;
  }
  const std::string scope = args.all
                                ? std::to_string(outcome.matched.size()) + " failed " +
                                      (outcome.matched.size() == 1 ? "entry" : "entries")
                                : "the failed entry of " + claim_key_text(outcome.matched.front());
  if (args.dry_run) {
    std::cout << "would retry " << scope << " of " << printable_store_url(args.store)
              << " (dry run: nothing changed)\n";
    if (args.all) {
      for (const ClaimKey& key : outcome.matched) {
        std::cout << "  " << claim_key_text(key) << '\n';
      }
    }
    return;
  }
  std::cout << "retried " << outcome.retried << " of " << scope << " of "
            << printable_store_url(args.store)
            << ": due for a retry now (whatever retries failed entries picks them up; nothing "
               "was redelivered)\n";
}

void run_inbox_retry(const InboxRetryArgs& args) {
  // Every check before the store is opened: a refused command reads nothing.
  const bool one = args.message_id.has_value() || args.handler_type.has_value();
  if (one == args.all) {
    throw UsageError(
        "inbox retry: pass exactly one of --tenant T --message-id M --handler-type H (one "
        "failed entry) and --all (every failed entry the filters match)");
  }
  // An empty --tenant is refused by TenantId below (exit 1), as by every command that
  // takes a tenant.
  require_retry_text("--message-id", args.message_id);
  require_retry_text("--handler-type", args.handler_type);
  require_retry_text("--error-like", args.error_like);
  if (one) {
    if (!args.tenant || !args.message_id || !args.handler_type) {
      throw UsageError(
          "inbox retry: one entry is named by all of --tenant, --message-id and "
          "--handler-type; pass the three");
    }
    if (args.error_like) {
      throw UsageError(
          "inbox retry: --error-like filters --all; one entry named by its key takes no filter");
    }
  }
  if (args.error_like) {
    require_valid_utf8("inbox retry: --error-like", *args.error_like);
  }
  std::optional<TenantId> tenant;
  if (args.tenant) {
    try {
      tenant.emplace(*args.tenant);
    } catch (const InvalidInputError& refused) {
      throw InvalidInputError("inbox retry: --tenant: " + std::string(refused.what()));
    }
  }
  std::optional<ClaimKey> key;
  if (one) {
    key.emplace(*tenant, *args.message_id, *args.handler_type);
  }
  const auto store = open_claim_inbox_store(args.store);
  require_service_store("inbox retry", args.store, store->capabilities(), "claim inbox");
  const InboxRetryOutcome outcome =
      key ? retry_one_entry(*store, *key, args.dry_run) : retry_all_entries(*store, args, tenant);
  print_inbox_retry(args, tenant, outcome);
}

}  // namespace

void add_inbox_retry_subcommand(CLI::App& inbox_group) {
  auto args = std::make_shared<InboxRetryArgs>();
  CLI::App* cmd = inbox_group.add_subcommand(
      "retry",
      "Make failed claim inbox entries due for a retry now (retry count and last error kept): "
      "one named by --tenant, --message-id and --handler-type, or with --all every failed entry "
      "the filters match. The claim inbox does not hold the message: whatever retries failed "
      "entries picks them up; nothing is redelivered. An entry that is not failed is refused "
      "(exit 1) and nothing is changed.");
  cmd->add_option("--store", args->store, "Store URL, e.g. sqlite:///var/lib/app/app.db")
      ->required();
  cmd->add_option("--tenant", args->tenant,
                  "The entry's tenant; with --all, only this tenant's entries");
  cmd->add_option("--message-id", args->message_id, "The failed entry's message id");
  cmd->add_option("--handler-type", args->handler_type, "The failed entry's handler type");
  cmd->add_flag("--all", args->all, "Every failed entry the filters match (all without filters)");
  cmd->add_option("--error-like", args->error_like,
                  "With --all: only entries whose last error contains this text (case-sensitive)");
  cmd->add_flag("--dry-run", args->dry_run, "Show what would be retried; change nothing");
  cmd->add_flag("--json", args->json, "Print one JSON object");
  cmd->callback([args] { run_inbox_retry(*args); });
}

}  // namespace docket::tool
