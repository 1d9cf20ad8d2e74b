// The failed entries of a claim inbox that `docket inbox failed` lists and `docket inbox
// retry --all` retries, read a page at a time through the store's own entries() read,
// in the store's key order; a failed entry as those commands (and `docket dashboard`)
// print it, and the retry of one entry named by its key, refused when it is not failed.
//
// Thread-safety: free functions; the store's own.
#ifndef DOCKET_TOOLS_DOCKET_FAILED_ENTRIES_H_
#define DOCKET_TOOLS_DOCKET_FAILED_ENTRIES_H_

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "docket/core/error.h"
#include "docket/inbox/claim_inbox_store.h"

namespace docket::tool {

// Calls `visit` with each failed entry of `tenant` (nullopt: every tenant) whose last
// error contains `error_like` (case-sensitive; nullopt: every one), until it returns
// false or none is left.
void for_each_failed_entry(ClaimInboxStore& store, const std::optional<TenantId>& tenant,
                           const std::optional<std::string>& error_like,
                           const std::function<bool(ClaimEntry&)>& visit);

// A failed entry as `inbox failed --json` prints it: tenant, message_id, handler_type,
// failures, last_error, next_attempt_at, received_at, updated_at.
nlohmann::json failed_entry_json(const ClaimEntry& entry);

// "message 'M' for handler 'H' (tenant 'T')".
std::string claim_key_text(const ClaimKey& key);

// The refusal of a key that names no failed entry: an InvalidInputError (exit 1) that
// also says whether the claim inbox holds an entry with that key at all.
class NotFailedError : public InvalidInputError {
 public:
  NotFailedError(const std::string& message, bool exists)
      : InvalidInputError(message), exists_(exists) {}
  bool exists() const noexcept { return exists_; }

 private:
  bool exists_;
};

// Makes the failed entry `key` due for a retry now (ClaimInboxStore::retry_now; on a dry
// run only checks that it is failed). Throws NotFailedError, "<command>: no failed entry
// of <key>: <why>. Nothing was changed.", when it is absent or in another status when
// read or when written (claimed by a delivery between the two).
void retry_failed_entry(ClaimInboxStore& store, std::string_view command, const ClaimKey& key,
                        bool dry_run);

}  // namespace docket::tool

#endif  // DOCKET_TOOLS_DOCKET_FAILED_ENTRIES_H_
