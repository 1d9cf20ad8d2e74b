#include "providers/sqlite/sqlite_database.h"

namespace docket::sqlite::detail {

Database::Database(const StoreOptions& options, const Clock& clock, Migration migration)
    : pool_(options.path, options.busy_timeout, options.max_connections),
      clock_(clock),
      migration_(migration) {}

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
  migration_(*lease);
  migrated_.store(true, std::memory_order_release);
}

}  // namespace docket::sqlite::detail
