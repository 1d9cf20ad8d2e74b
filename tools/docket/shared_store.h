// The refusal of a store that the commands running docket's order pipeline across
// several stores or processes cannot use: one whose stores are private to the process
// and the store object that opens them (StoreCapabilities::shared_between_processes is
// false: memory:, sqlite::memory:). `docket chaos` runs its producer, relay and consumer
// as separate processes on one store; `docket soak` opens its outbox, inbox and order
// tables on one URL as separate stores. On such a store neither would share anything
// with itself: a producer's orders no relay sees, an order table no pipeline created.
//
// The inspection and repair commands (outbox list|replay|skip, inbox failed|retry) read
// what the user's service wrote: on a private store this process would see only an
// empty store of its own, so they are refused too (require_service_store).
//
// Thread-safety: free functions.
#ifndef DOCKET_TOOLS_DOCKET_SHARED_STORE_H_
#define DOCKET_TOOLS_DOCKET_SHARED_STORE_H_

#include <string_view>

#include "docket/core/store_capabilities.h"

namespace docket::tool {

// Throws ConfigurationError, naming `command`, the store (masked), why it cannot be
// shared, what `command` needs to share and what to pass instead, when stores opened on
// `url` are not shared between processes. Opens a store on `url` to ask it, which sends
// nothing to a server; what opening it throws (an unknown scheme, a malformed URL)
// propagates.
void require_shared_store(std::string_view command, std::string_view url,
                          std::string_view what_is_shared, std::string_view example_url);

// Throws ConfigurationError, naming `command`, the store (masked) and what to pass
// instead, when `capabilities` (of a `store_kind` opened on `url`: "outbox", "claim
// inbox") say it is private to this process. Nothing was read or changed by then.
void require_service_store(std::string_view command, std::string_view url,
                           const StoreCapabilities& capabilities, std::string_view store_kind);

}  // namespace docket::tool

#endif  // DOCKET_TOOLS_DOCKET_SHARED_STORE_H_
