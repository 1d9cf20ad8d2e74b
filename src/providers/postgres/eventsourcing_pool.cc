#include "providers/postgres/eventsourcing_pool.h"

#include <utility>

#include "docket/error.h"
#include "providers/postgres/eventsourcing_schema.h"

namespace docket::postgres {

std::unique_ptr<Pool> open_eventsourcing_pool(std::string conninfo, std::size_t pool_size,
                                              std::string_view store) {
  if (pool_size == 0) {
    throw ConfigurationError(std::string(store) +
                             ": pool_size is 0; give at least 1 (the number of connections the "
                             "store may hold open at once)");
  }
  auto pool = std::make_unique<Pool>(std::move(conninfo), PoolOptions{.max_size = pool_size});
  auto lease = pool->acquire();
  migrate_eventsourcing_schema(*lease);
  return pool;
}

}  // namespace docket::postgres
