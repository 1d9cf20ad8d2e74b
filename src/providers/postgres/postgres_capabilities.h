// What every PostgreSQL store can do (docket/core/store_capabilities.h): interactive
// transactions that join handler writes without a limit, a feed of global positions,
// and a server shared by every process.
#ifndef DOCKET_PROVIDERS_POSTGRES_CAPABILITIES_H_
#define DOCKET_PROVIDERS_POSTGRES_CAPABILITIES_H_

#include "docket/core/store_capabilities.h"

namespace docket::postgres::detail {

constexpr StoreCapabilities kPostgresCapabilities{.joins_handler_writes = true,
                                                  .interactive_transactions = true,
                                                  .feed = FeedKind::kGlobalPositions,
                                                  .shared_between_processes = true,
                                                  .concurrent_writers = true};

}  // namespace docket::postgres::detail

#endif  // DOCKET_PROVIDERS_POSTGRES_CAPABILITIES_H_
