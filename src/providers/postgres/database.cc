#include "providers/postgres/database.h"

#include <string>

#include "docket/error.h"

namespace docket::postgres {

PoolOptions pool_options(const StoreOptions& options) {
  if (options.max_connections == 0) {
    throw ConfigurationError(
        "PostgreSQL store: max_connections is 0; a store needs at least one connection");
  }
  if (options.acquire_timeout.count() < 0) {
    throw ConfigurationError("PostgreSQL store: acquire_timeout is negative (" +
                             std::to_string(options.acquire_timeout.count()) +
                             " ms); give 0 or more milliseconds");
  }
  return PoolOptions{.max_size = options.max_connections,
                     .acquire_timeout = options.acquire_timeout};
}

Database::Database(const StoreOptions& options, const Clock& clock, SchemaComponent component)
    : pool_(options.conninfo, pool_options(options)), clock_(clock), component_(component) {}

Pool::Lease Database::connect() {
  if (!migrated_.load(std::memory_order_acquire)) {
    migrate();
  }
  return pool_.acquire();
}

void Database::migrate() {
  // A failed migration leaves migrated_ false, so the next use tries again.
  std::lock_guard lock(migrate_mutex_);
  auto lease = pool_.acquire();
  migrate_component(*lease, component_);
  migrated_.store(true, std::memory_order_release);
}

std::int64_t micros(Timestamp t) {
  return std::chrono::duration_cast<std::chrono::microseconds>(t.time_since_epoch()).count();
}

}  // namespace docket::postgres
