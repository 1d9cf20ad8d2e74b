#include "providers/postgres/postgres_database.h"

#include <string>

namespace docket::postgres::detail {

PoolOptions pool_options(const StoreOptions& options) {
  // The Pool refuses a size of 0 or a negative timeout, with the server in its message.
  return PoolOptions{.max_size = options.max_connections,
                     .acquire_timeout = options.acquire_timeout};
}

Database::Database(const StoreOptions& options, const Clock& clock,
                   std::vector<SchemaComponent> components)
    : pool_(options.conninfo, pool_options(options)),
      clock_(clock),
      components_(std::move(components)) {}

std::string Database::identity(const Connection& conn) {
  const char* options = PQoptions(conn.native());
  return conn.description() + " with options '" + (options != nullptr ? options : "") + "'";
}

bool Database::holds(const Connection& conn) {
  ensure_migrated();
  return identity(conn) == identity_;
}

void Database::ensure_migrated() {
  if (!migrated_.load(std::memory_order_acquire)) {
    migrate();
  }
}

Pool::Lease Database::connect() {
  ensure_migrated();
  return pool_.acquire();
}

void Database::migrate() {
  // A failed migration leaves migrated_ false, so the next use tries again.
  std::lock_guard lock(migrate_mutex_);
  auto lease = pool_.acquire();
  for (const auto& component : components_) {
    migrate_component(*lease, component);
  }
  if (!migrated_.load(std::memory_order_relaxed)) {
    identity_ = identity(*lease);  // never rewritten once holds() may read it
  }
  migrated_.store(true, std::memory_order_release);
}

}  // namespace docket::postgres::detail
