// What the stores of one SQLite provider object share: the connection pool, the
// clock, and the schema migration done once per store on first use (the inbox's for
// the inbox store and its checkpoint store, the event sourcing one for the event,
// snapshot and saga stores).
//
// Thread-safety: every member is safe to call from many threads.
#ifndef DOCKET_PROVIDERS_SQLITE_SQLITE_DATABASE_H_
#define DOCKET_PROVIDERS_SQLITE_SQLITE_DATABASE_H_

#include <atomic>
#include <memory>
#include <mutex>
#include <string>

#include "docket/core/clock.h"
#include "docket/core/wake_signal.h"
#include "docket/sqlite/store.h"
#include "providers/sqlite/sqlite_capabilities.h"
#include "providers/sqlite/sqlite_pool.h"

namespace docket::sqlite::detail {

class Database {
 public:
  // Brings the schema this store needs up to date on a connection (idempotent).
  using Migration = void (*)(Connection&);

  Database(const StoreOptions& options, const Clock& clock, Migration migration);

  // A pooled connection on a migrated database.
  Pool::Lease connect();

  // Runs the migration (again); idempotent.
  void migrate();

  const Clock& clock() const noexcept { return clock_; }

  // What the provider's stores on this database can do (sqlite_capabilities.h).
  StoreCapabilities capabilities() const noexcept {
    return sqlite_capabilities(!canonical_path_.empty());
  }

  // Whether `connection` is open on this database: one of this pool's connections,
  // or (for a file) any connection to the same file.
  bool holds(const Connection& connection) const;

  // Notified after a commit that staged outbox messages (OutboxStore::staged_signal) or
  // appended events (EventStore::appended_signal) on this database, by any of this
  // process's stores on the file (kit/wake_signals.h); ":memory:" has its own.
  const std::shared_ptr<WakeSignal>& outbox_staged() const noexcept { return outbox_staged_; }
  const std::shared_ptr<WakeSignal>& events_appended() const noexcept { return events_appended_; }

 private:
  Pool pool_;
  std::string canonical_path_;  // empty for ":memory:"
  std::shared_ptr<WakeSignal> outbox_staged_;
  std::shared_ptr<WakeSignal> events_appended_;
  const Clock& clock_;
  const Migration migration_;
  std::atomic<bool> migrated_ = false;
  std::mutex migrate_mutex_;
};

}  // namespace docket::sqlite::detail

#endif  // DOCKET_PROVIDERS_SQLITE_SQLITE_DATABASE_H_
