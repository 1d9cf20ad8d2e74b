// What every memory store can do (docket/store_capabilities.h): real units of work that
// join handler writes without a limit, an ordered feed, one process only.
#ifndef DOCKET_PROVIDERS_MEMORY_MEMORY_CAPABILITIES_H_
#define DOCKET_PROVIDERS_MEMORY_MEMORY_CAPABILITIES_H_

#include "docket/store_capabilities.h"

namespace docket::memory::detail {

constexpr StoreCapabilities kMemoryCapabilities{
    .joins_handler_writes = true, .interactive_transactions = true, .ordered_feed = true};

}  // namespace docket::memory::detail

#endif  // DOCKET_PROVIDERS_MEMORY_MEMORY_CAPABILITIES_H_
