// The memory saga store (library docket::memory): saga states, process-local, for
// prototyping and tests. Keeps every guarantee of docket/saga_store.h; nothing
// survives the store object.
//
// Thread-safety: the store may be used from many threads at once.
#ifndef DOCKET_MEMORY_SAGA_STORE_H_
#define DOCKET_MEMORY_SAGA_STORE_H_

#include <memory>

#include "docket/clock.h"
#include "docket/saga_store.h"

namespace docket::memory {

// An empty saga store. `clock` stamps the saga timestamps, and must outlive the store.
std::unique_ptr<SagaStore> open_saga_store(const Clock& clock = SystemClock::instance());

}  // namespace docket::memory

#endif  // DOCKET_MEMORY_SAGA_STORE_H_
