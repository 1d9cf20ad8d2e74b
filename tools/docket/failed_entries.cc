#include "failed_entries.h"

#include <utility>

#include "docket/core/clock.h"

namespace docket::tool {
namespace {

constexpr std::size_t kPageSize = 500;

}  // namespace

void for_each_failed_entry(ClaimInboxStore& store, const std::optional<TenantId>& tenant,
                           const std::optional<std::string>& error_like,
                           const std::function<bool(ClaimEntry&)>& visit) {
  ClaimPageRequest request{.tenant = tenant, .status = ClaimStatus::kFailed, .limit = kPageSize};
  while (true) {
    ClaimPage page = store.entries(request);
    for (ClaimEntry& entry : page.entries) {
      if (error_like &&
          (!entry.last_error || entry.last_error->find(*error_like) == std::string::npos)) {
        continue;
      }
      if (!visit(entry)) {
        return;
      }
    }
    if (!page.next) {
      return;
    }
    request.after = std::move(page.next);
  }
}

nlohmann::json failed_entry_json(const ClaimEntry& e) {
  return {
      {"tenant", e.key.tenant().value()},
      {"message_id", e.key.message_id()},
      {"handler_type", e.key.handler_type()},
      {"failures", e.retry_count},
      {"last_error", e.last_error ? nlohmann::json(*e.last_error) : nlohmann::json(nullptr)},
      {"next_attempt_at", e.next_attempt_at ? nlohmann::json(format_timestamp(*e.next_attempt_at))
                                            : nlohmann::json(nullptr)},
      {"received_at", format_timestamp(e.received_at)},
      {"updated_at", format_timestamp(e.updated_at)}};
}

std::string claim_key_text(const ClaimKey& key) {
  return "message '" + key.message_id() + "' for handler '" + key.handler_type() + "' (tenant '" +
         key.tenant().value() + "')";
}

namespace {

// Refuses an entry that is not failed, naming why; nothing was changed.
[[noreturn]] void refuse_not_failed_entry(std::string_view command, const ClaimKey& key,
                                          const std::optional<ClaimEntry>& found) {
  std::string why;
  if (!found) {
    why =
        "the claim inbox holds no such entry (processed entries are deleted by cleanup after a "
        "while); `docket inbox failed` lists the failed ones";
  } else {
    switch (found->status) {
      case ClaimStatus::kProcessed:
        why = "it is processed: its handler succeeded, so there is nothing to retry";
        break;
      case ClaimStatus::kProcessing:
        why = "it is processing: a handler holds it" +
              (found->lease_until ? " until " + format_timestamp(*found->lease_until)
                                  : std::string()) +
              "; only a failed entry can be retried";
        break;
      case ClaimStatus::kReceived:
        why = "it is received (released, not failed): the next delivery claims it";
        break;
      case ClaimStatus::kFailed:
        // Failed when read back: it changed again after the write was refused.
        why = "it was not failed when the command reached it; run the command again";
        break;
    }
  }
  throw NotFailedError(std::string(command) + ": no failed entry of " + claim_key_text(key) + ": " +
                           why + ". Nothing was changed.",
                       found.has_value());
}

}  // namespace

void retry_failed_entry(ClaimInboxStore& store, std::string_view command, const ClaimKey& key,
                        bool dry_run) {
  const std::optional<ClaimEntry> found = store.find(key);
  if (!found || found->status != ClaimStatus::kFailed) {
    refuse_not_failed_entry(command, key, found);
  }
  if (!dry_run && !store.retry_now(key)) {
    // Claimed (or otherwise changed) by someone else between the read and the write.
    refuse_not_failed_entry(command, key, store.find(key));
  }
}

}  // namespace docket::tool
