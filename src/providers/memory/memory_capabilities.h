// What every memory store can do (docket/core/store_capabilities.h): real units of work that
// join handler writes without a limit, a feed of global positions, one process only.
#ifndef DOCKET_PROVIDERS_MEMORY_MEMORY_CAPABILITIES_H_
#define DOCKET_PROVIDERS_MEMORY_MEMORY_CAPABILITIES_H_

#include "docket/core/store_capabilities.h"

namespace docket::memory::detail {

constexpr StoreCapabilities kMemoryCapabilities{.joins_handler_writes = true,
                                                .interactive_transactions = true,
                                                .feed = FeedKind::kGlobalPositions};

}  // namespace docket::memory::detail

#endif  // DOCKET_PROVIDERS_MEMORY_MEMORY_CAPABILITIES_H_
