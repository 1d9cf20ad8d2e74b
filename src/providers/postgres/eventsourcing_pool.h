// The connection pool behind each PostgreSQL event, snapshot and saga store: opened
// from the caller's connection string, with the event sourcing schema migrated on the
// first connection.
//
// Thread-safety: the returned Pool is (see pool.h).
#ifndef DOCKET_PROVIDERS_POSTGRES_EVENTSOURCING_POOL_H_
#define DOCKET_PROVIDERS_POSTGRES_EVENTSOURCING_POOL_H_

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include "providers/postgres/pool.h"

namespace docket::postgres {

// Throws ConfigurationError naming `store` ("PostgreSQL event store", ...) when
// pool_size is 0 or the string does not parse, InfrastructureError when the server
// cannot be reached or migrated.
std::unique_ptr<Pool> open_eventsourcing_pool(std::string conninfo, std::size_t pool_size,
                                              std::string_view store);

}  // namespace docket::postgres

#endif  // DOCKET_PROVIDERS_POSTGRES_EVENTSOURCING_POOL_H_
