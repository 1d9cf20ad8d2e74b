// What the stores of one PostgreSQL provider object share: the connection pool, the
// clock, and the schema migration done once per store on first use (the inbox's and
// the outbox's for the inbox store, so that handlers may stage follow-up messages; the
// outbox's for the outbox store; another component's for other stores).
//
// Thread-safety: every member is safe to call from many threads.
#ifndef DOCKET_PROVIDERS_POSTGRES_DATABASE_H_
#define DOCKET_PROVIDERS_POSTGRES_DATABASE_H_

#include <atomic>
#include <mutex>
#include <string>
#include <vector>

#include "docket/core/clock.h"
#include "docket/postgres/store.h"
#include "providers/postgres/postgres_migration.h"
#include "providers/postgres/postgres_pool.h"

namespace docket::postgres::detail {

// The pool settings of `options` (the Pool checks them).
PoolOptions pool_options(const StoreOptions& options);

class Database {
 public:
  // `components` (whose scripts must outlive the Database) are migrated, in order, on
  // first use.
  Database(const StoreOptions& options, const Clock& clock,
           std::vector<SchemaComponent> components);

  // A pooled connection on a migrated database.
  Pool::Lease connect();

  // Runs the migration (again); idempotent.
  void migrate();

  const Clock& clock() const noexcept { return clock_; }

  // Whether `conn` works on this store's tables: the same database, server and user,
  // and the same connection options (which carry a search_path). Migrates first when
  // this store has not connected yet.
  bool holds(const Connection& conn);

 private:
  void ensure_migrated();
  static std::string identity(const Connection& conn);

  Pool pool_;
  const Clock& clock_;
  const std::vector<SchemaComponent> components_;
  std::string identity_;  // written once under migrate_mutex_, before migrated_ is set
  std::atomic<bool> migrated_ = false;
  std::mutex migrate_mutex_;
};

}  // namespace docket::postgres::detail

#endif  // DOCKET_PROVIDERS_POSTGRES_DATABASE_H_
