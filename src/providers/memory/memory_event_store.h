// The memory event store: one ordered log of every event, indexed by stream and by
// tenant.
//
// Locking: one reader/writer lock guards all state. append holds it exclusively for
// the version check, position assignment and insert, which makes an append atomic and
// assigns positions in commit order (nothing is ever in flight for read_all); load and
// read_all hold it shared.
//
// Thread-safety: every member is safe to call from many threads.
#ifndef DOCKET_PROVIDERS_MEMORY_MEMORY_EVENT_STORE_H_
#define DOCKET_PROVIDERS_MEMORY_MEMORY_EVENT_STORE_H_

#include <cstddef>
#include <map>
#include <shared_mutex>
#include <vector>

#include "docket/event_store.h"

namespace docket::memory::detail {

class MemoryEventStore final : public EventStore {
 public:
  explicit MemoryEventStore(const Clock& clock) noexcept : EventStore(clock) {}

  std::string_view provider_name() const noexcept override { return "memory"; }

 private:
  AppendResult do_append(const StreamId& stream, ExpectedVersion expected,
                         std::vector<RecordedEvent> events) override;
  std::vector<RecordedEvent> do_load(const StreamId& stream, std::int64_t from_version) override;
  ReadAllPage do_read_all(std::int64_t from_position, std::size_t limit,
                          const TenantId* tenant) override;

  mutable std::shared_mutex mutex_;
  std::vector<RecordedEvent> log_;                        // [p - 1] holds position p
  std::map<StreamId, std::vector<std::size_t>> streams_;  // [v] = log index of version v
  std::map<TenantId, std::vector<std::size_t>> tenants_;  // ascending log indexes
};

}  // namespace docket::memory::detail

#endif  // DOCKET_PROVIDERS_MEMORY_MEMORY_EVENT_STORE_H_
