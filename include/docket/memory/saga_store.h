// The memory saga store (library docket::memory): saga states, process-local, for
// prototyping and tests. Keeps every guarantee of docket/sagas/saga_store.h; nothing
// survives its database.
//
// Inside a caller's transaction: load(transaction, ...) and save(transaction, ...)
// join the unit of work of a memory inbox store on the same docket::memory::Database
// (docket/memory/database.h). load sees the unit's own staged saves; save checks the
// version the unit sees (a conflict is a result value) and stages the new state, which
// commits with the dedup row. No lock is taken (unlike PostgreSQL's SELECT ... FOR
// UPDATE): the commit checks the saga's version again, and a unit whose saga another
// unit saved in between fails at commit with SagaConflictError (a
// ConcurrencyConflictError) and writes nothing; dispatch() rethrows it (the message is delivered
// again), dispatch_batch runs the batch again. A transaction of another memory
// database or another provider throws ConfigurationError naming both.
//
// Thread-safety: the store may be used from many threads at once.
#ifndef DOCKET_MEMORY_SAGA_STORE_H_
#define DOCKET_MEMORY_SAGA_STORE_H_

#include <memory>

#include "docket/core/clock.h"
#include "docket/memory/database.h"
#include "docket/sagas/saga_store.h"

namespace docket::memory {

// The saga store of `database`; the database's clock stamps the saga timestamps.
std::unique_ptr<SagaStore> open_saga_store(const Database& database);

// An empty saga store on a database of its own. `clock` stamps the saga timestamps,
// and must outlive the store.
std::unique_ptr<SagaStore> open_saga_store(const Clock& clock = SystemClock::instance());

}  // namespace docket::memory

#endif  // DOCKET_MEMORY_SAGA_STORE_H_
