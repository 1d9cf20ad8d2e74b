// One memory database (library docket::memory): the process-local counterpart of one
// SQLite file. The memory stores opened on it share its tables, event streams,
// snapshots and sagas, so an inbox handler on a memory inbox store may, through its
// docket::memory::Transaction, append events (EventStore::append(transaction, ...)),
// load and save sagas (SagaStore::load/save(transaction, ...)) and stage outbox
// messages, and all of it commits or rolls back with the message's dedup row:
//
//   const docket::memory::Database db = docket::memory::open_database();
//   auto inbox = docket::memory::open_store(db);
//   auto events = docket::memory::open_event_store(db);
//   auto outbox = docket::memory::open_outbox_store(db);
//
// Units of work are optimistic: what a unit stages is checked when staged, against
// what the unit sees, and again at commit under the database's lock. A unit that lost
// a race in between fails at commit and writes nothing: with UniqueViolationError
// when another unit committed the same dedup row or row key first, with
// ConcurrencyConflictError (SagaConflictError for a saga) when it appended to the same
// stream or saved the same saga first. The dispatcher resolves a unique violation to
// skipped_duplicate when the other unit committed this message; dispatch() rethrows
// the rest (so the message is delivered again), and dispatch_batch runs its unit
// again on a conflict or a duplicate, and runs its messages one to a unit when a
// handler's row key was taken. Event positions are
// assigned at commit under the lock, so EventStore::read_all never has one in flight.
//
// A Database is a handle: copies share one database, which lives as long as the last
// handle or store opened on it. Nothing survives it.
//
// Thread-safety: a handle may be copied and used from many threads at once, and so may
// the stores opened on it.
#ifndef DOCKET_MEMORY_DATABASE_H_
#define DOCKET_MEMORY_DATABASE_H_

#include <cstdint>
#include <memory>

#include "docket/core/clock.h"

namespace docket::memory {

// How docket's own memory stores reach the database a handle shares
// (src/providers/memory/memory_database_access.h).
class DatabaseAccess;

class Database {
 public:
  // A number unique in this process; errors name the database by it ("memory
  // database 3").
  std::uint64_t id() const noexcept;

  friend bool operator==(const Database& a, const Database& b) noexcept {
    return a.shared_ == b.shared_;
  }

 private:
  friend class DatabaseAccess;
  friend Database open_database(const Clock& clock);

  // What every copy of the handle shares: the database itself, a type of docket's memory
  // code that this header leaves opaque.
  class Shared;

  explicit Database(std::shared_ptr<Shared> shared) noexcept;

  std::shared_ptr<Shared> shared_;
};

// A new, empty database. `clock` stamps what the stores opened on it record
// (processed-at, checkpoint times, occurred-at, saga and snapshot times) and must
// outlive every store opened on it.
Database open_database(const Clock& clock = SystemClock::instance());

}  // namespace docket::memory

#endif  // DOCKET_MEMORY_DATABASE_H_
