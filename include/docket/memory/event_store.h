// The memory event store (library docket::memory): process-local streams, for
// prototyping and tests. It keeps every guarantee of docket/event_store.h; nothing
// survives the store object.
//
// Global positions are assigned at commit, under the store's lock, so read_all never
// has a position in flight.
//
// It does not join a caller's transaction yet: append(transaction, ...) throws
// ConfigurationError (see docs/eventsourcing.md).
//
// Thread-safety: the store may be used from many threads at once.
#ifndef DOCKET_MEMORY_EVENT_STORE_H_
#define DOCKET_MEMORY_EVENT_STORE_H_

#include <memory>

#include "docket/clock.h"
#include "docket/event_store.h"

namespace docket::memory {

// An empty event store. `clock` stamps occurred-at when an event has none, and must
// outlive the store.
std::unique_ptr<EventStore> open_event_store(const Clock& clock = SystemClock::instance());

}  // namespace docket::memory

#endif  // DOCKET_MEMORY_EVENT_STORE_H_
