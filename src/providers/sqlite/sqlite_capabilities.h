// What every SQLite store can do (docket/core/store_capabilities.h): interactive
// transactions that join handler writes without a limit, a feed of global positions,
// and, for a file, many processes.
#ifndef DOCKET_PROVIDERS_SQLITE_SQLITE_CAPABILITIES_H_
#define DOCKET_PROVIDERS_SQLITE_SQLITE_CAPABILITIES_H_

#include "docket/core/store_capabilities.h"

namespace docket::sqlite::detail {

// `file`: false for ":memory:", which one process (one connection) serves.
constexpr StoreCapabilities sqlite_capabilities(bool file) noexcept {
  return {.joins_handler_writes = true,
          .interactive_transactions = true,
          .feed = FeedKind::kGlobalPositions,
          .shared_between_processes = file};
}

}  // namespace docket::sqlite::detail

#endif  // DOCKET_PROVIDERS_SQLITE_SQLITE_CAPABILITIES_H_
