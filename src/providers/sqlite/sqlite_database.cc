#include "providers/sqlite/sqlite_database.h"

#include "providers/sqlite/sqlite_schema.h"

namespace docket::sqlite::detail {

Database::Database(const StoreOptions& options, const Clock& clock)
    : pool_(options.path, options.busy_timeout, options.max_connections), clock_(clock) {}

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
  migrate_schema(*lease);
  migrated_.store(true, std::memory_order_release);
}

}  // namespace docket::sqlite::detail
