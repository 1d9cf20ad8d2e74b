// What the SQLite inbox store and its checkpoint store share: the connection pool,
// the clock, and the schema migration done once per store on first use.
//
// Thread-safety: every member is safe to call from many threads.
#ifndef DOCKET_PROVIDERS_SQLITE_SQLITE_DATABASE_H_
#define DOCKET_PROVIDERS_SQLITE_SQLITE_DATABASE_H_

#include <atomic>
#include <mutex>

#include "docket/clock.h"
#include "docket/sqlite/store.h"
#include "providers/sqlite/sqlite_pool.h"

namespace docket::sqlite::detail {

class Database {
 public:
  Database(const StoreOptions& options, const Clock& clock);

  // A pooled connection on a migrated database.
  Pool::Lease connect();

  // Runs the migration (again); idempotent.
  void migrate();

  const Clock& clock() const noexcept { return clock_; }

 private:
  Pool pool_;
  const Clock& clock_;
  std::atomic<bool> migrated_ = false;
  std::mutex migrate_mutex_;
};

}  // namespace docket::sqlite::detail

#endif  // DOCKET_PROVIDERS_SQLITE_SQLITE_DATABASE_H_
