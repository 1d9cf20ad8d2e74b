// What the stores of one PostgreSQL provider object share: the connection pool, the
// clock, and the schema migration done once per store on first use (the inbox's for
// the inbox store and its checkpoint store; another component's for other stores).
//
// Thread-safety: every member is safe to call from many threads.
#ifndef DOCKET_PROVIDERS_POSTGRES_DATABASE_H_
#define DOCKET_PROVIDERS_POSTGRES_DATABASE_H_

#include <atomic>
#include <mutex>

#include "docket/clock.h"
#include "docket/postgres/store.h"
#include "providers/postgres/migration.h"
#include "providers/postgres/pool.h"

namespace docket::postgres {

// Throws ConfigurationError for max_connections of 0 or a negative acquire_timeout.
PoolOptions pool_options(const StoreOptions& options);

class Database {
 public:
  // `component` (whose scripts must outlive the Database) is migrated on first use.
  Database(const StoreOptions& options, const Clock& clock, SchemaComponent component);

  // A pooled connection on a migrated database.
  Pool::Lease connect();

  // Runs the migration (again); idempotent.
  void migrate();

  const Clock& clock() const noexcept { return clock_; }

 private:
  Pool pool_;
  const Clock& clock_;
  const SchemaComponent component_;
  std::atomic<bool> migrated_ = false;
  std::mutex migrate_mutex_;
};

// Microseconds since the Unix epoch, how docket binds timestamps; SQL turns such a
// parameter into a timestamptz exactly with `'epoch'::timestamptz + $n * interval '1 us'`.
std::int64_t micros(Timestamp t);

}  // namespace docket::postgres

#endif  // DOCKET_PROVIDERS_POSTGRES_DATABASE_H_
