// What the SQLite inbox store and its checkpoint store share: the connection pool,
// the clock, and the schema migration done once per store on first use.
//
// Thread-safety: every member is safe to call from many threads.
#ifndef DOCKET_PROVIDERS_SQLITE_SQLITE_DATABASE_H_
#define DOCKET_PROVIDERS_SQLITE_SQLITE_DATABASE_H_

#include <atomic>
#include <mutex>
#include <string>

#include "docket/clock.h"
#include "docket/sqlite/store.h"
#include "providers/sqlite/sqlite_pool.h"

namespace docket::sqlite::detail {

// Throws ConfigurationError for an empty path or max_connections of 0; caps
// ":memory:" at one connection (each connection to it is its own database).
void validate_store_options(StoreOptions& options);

class Database {
 public:
  Database(const StoreOptions& options, const Clock& clock);

  // A pooled connection on a migrated database.
  Pool::Lease connect();

  // Runs the migration (again); idempotent.
  void migrate();

  const Clock& clock() const noexcept { return clock_; }

  // Whether `connection` is open on this database: one of this pool's connections,
  // or (for a file) any connection to the same file.
  bool holds(const Connection& connection) const;

 private:
  Pool pool_;
  std::string canonical_path_;  // empty for ":memory:"
  const Clock& clock_;
  std::atomic<bool> migrated_ = false;
  std::mutex migrate_mutex_;
};

}  // namespace docket::sqlite::detail

#endif  // DOCKET_PROVIDERS_SQLITE_SQLITE_DATABASE_H_
