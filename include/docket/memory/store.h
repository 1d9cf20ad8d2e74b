// The memory provider (library docket::memory) of the inbox and the outbox: process-local tables
// with real transactions (staged writes, savepoints, unique keys checked at insert and at commit),
// for tests and prototyping. Nothing survives the database.
//
// Units of work run concurrently and optimistically; commit validates every staged key
// and applies all writes at once under the database's lock. So two concurrent
// deliveries of one message may both run their handlers, and the second fails at
// commit with UniqueViolationError, which the dispatcher resolves to skipped_duplicate.
//
// Stores opened on one docket::memory::Database (docket/memory/database.h) share it: a
// handler of an inbox store on it may stage outbox messages, append events and save
// sagas in its unit of work. The factories taking a clock open a database of their own.
//
// Thread-safety: the store may be used from many threads at once.
#ifndef DOCKET_MEMORY_STORE_H_
#define DOCKET_MEMORY_STORE_H_

#include <memory>

#include "docket/core/clock.h"
#include "docket/inbox/inbox_store.h"
#include "docket/memory/database.h"
#include "docket/outbox/outbox_store.h"

namespace docket::memory {

// An inbox (with its checkpoint store) on `database`.
std::unique_ptr<InboxStore> open_store(const Database& database);
// The same on a database of its own.
std::unique_ptr<InboxStore> open_store(const Clock& clock = SystemClock::instance());

// A memory outbox on `database`: producers stage through units of work from its
// begin(), and handlers of an inbox store on the same database through their own
// transaction. Like PostgreSQL, a message's sequence is taken when it is staged and
// becomes visible when its unit of work commits, so sequences can appear out of order
// and a rolled-back unit leaves a gap in them.
std::unique_ptr<OutboxStore> open_outbox_store(const Database& database);
// The same on a database of its own.
std::unique_ptr<OutboxStore> open_outbox_store(const Clock& clock = SystemClock::instance());

}  // namespace docket::memory

#endif  // DOCKET_MEMORY_STORE_H_
