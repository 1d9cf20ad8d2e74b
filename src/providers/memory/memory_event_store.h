// The memory event store: the event log of a memory database (memory_event_log.h).
//
// Locking: the database's reader/writer lock. An append of its own holds it
// exclusively for the version check, position assignment and insert, which makes it
// atomic and assigns positions in commit order (nothing is ever in flight for
// read_all); load and read_all hold it shared. An append inside a unit of work checks
// the version the unit sees and stages the events; the unit's commit checks it again
// and assigns the positions, under the exclusive lock.
//
// Thread-safety: every member is safe to call from many threads.
#ifndef DOCKET_PROVIDERS_MEMORY_MEMORY_EVENT_STORE_H_
#define DOCKET_PROVIDERS_MEMORY_MEMORY_EVENT_STORE_H_

#include <cstddef>
#include <memory>
#include <vector>

#include "docket/eventsourcing/event_store.h"
#include "providers/memory/memory_capabilities.h"
#include "providers/memory/memory_database.h"

namespace docket::memory::detail {

class MemoryEventStore final : public EventStore {
 public:
  explicit MemoryEventStore(std::shared_ptr<Database> database) noexcept
      : EventStore(database->clock()), database_(std::move(database)) {}

  std::string_view provider_name() const noexcept override { return "memory"; }
  StoreCapabilities capabilities() const noexcept override { return detail::kMemoryCapabilities; }
  std::shared_ptr<WakeSignal> appended_signal() override { return database_->events_appended(); }

 private:
  AppendResult do_append(const StreamId& stream, ExpectedVersion expected,
                         std::vector<RecordedEvent> events) override;
  AppendResult do_append_in(HandlerTransaction& transaction, const StreamId& stream,
                            ExpectedVersion expected, std::vector<RecordedEvent> events) override;
  std::vector<RecordedEvent> do_load(const StreamId& stream, std::int64_t from_version) override;
  ReadAllPage do_read_all(std::int64_t from_position, std::size_t limit,
                          const TenantId* tenant) override;
  std::int64_t do_last_position(const TenantId* tenant) override;

  std::shared_ptr<Database> database_;
};

}  // namespace docket::memory::detail

#endif  // DOCKET_PROVIDERS_MEMORY_MEMORY_EVENT_STORE_H_
