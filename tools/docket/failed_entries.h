// The failed entries of a claim inbox that `docket inbox failed` lists and `docket inbox
// retry --all` retries, read a page at a time through the store's own entries() read,
// in the store's key order.
//
// Thread-safety: a free function; the store's own.
#ifndef DOCKET_TOOLS_DOCKET_FAILED_ENTRIES_H_
#define DOCKET_TOOLS_DOCKET_FAILED_ENTRIES_H_

#include <functional>
#include <optional>
#include <string>

#include "docket/inbox/claim_inbox_store.h"

namespace docket::tool {

// Calls `visit` with each failed entry of `tenant` (nullopt: every tenant) whose last
// error contains `error_like` (case-sensitive; nullopt: every one), until it returns
// false or none is left.
void for_each_failed_entry(ClaimInboxStore& store, const std::optional<TenantId>& tenant,
                           const std::optional<std::string>& error_like,
                           const std::function<bool(ClaimEntry&)>& visit);

}  // namespace docket::tool

#endif  // DOCKET_TOOLS_DOCKET_FAILED_ENTRIES_H_
