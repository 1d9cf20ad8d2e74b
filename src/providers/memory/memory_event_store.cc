#include "providers/memory/memory_event_store.h"

#include <memory>
#include <utility>

#include "docket/memory/event_store.h"
#include "providers/memory/memory_database_access.h"
#include "providers/memory/memory_unit.h"

namespace docket::memory {
namespace detail {

AppendResult MemoryEventStore::do_append(const StreamId& stream, ExpectedVersion expected,
                                         std::vector<RecordedEvent> events) {
  std::optional<AppendResult> result;
  database_->write([&](State& state) {
    EventLog& log = state.events;
    if (auto conflict = number_events(stream, expected, log.version(stream), events)) {
      result = std::move(*conflict);
      return;
    }
    result = log.append(stream, std::move(events));
  });
  if (result->succeeded())
    database_->events_appended()->notify();
  return std::move(*result);
}

AppendResult MemoryEventStore::do_append_in(HandlerTransaction& transaction, const StreamId& stream,
                                            ExpectedVersion expected,
                                            std::vector<RecordedEvent> events) {
  Unit& unit = joined_unit(transaction, *database_, [&](const std::string& reason) {
    return cannot_join_error(transaction, reason);
  });
  const std::int64_t base_version = unit.stream_version(stream);
  if (auto conflict = number_events(stream, expected, base_version, events)) {
    return std::move(*conflict);
  }
  // Positions stay 0: they are assigned at commit, in commit order.
  AppendSuccess success = appended(events);
  unit.stage_append(
      StagedAppend{.stream = stream, .base_version = base_version, .events = std::move(events)});
  return success;
}

std::vector<RecordedEvent> MemoryEventStore::do_load(const StreamId& stream,
                                                     std::int64_t from_version) {
  std::vector<RecordedEvent> events;
  database_->read([&](const State& state) { events = state.events.load(stream, from_version); });
  return events;
}

ReadAllPage MemoryEventStore::do_read_all(std::int64_t from_position, std::size_t limit,
                                          const TenantId* tenant) {
  ReadAllPage page;
  database_->read(
      [&](const State& state) { page = state.events.read_all(from_position, limit, tenant); });
  return page;
}

std::int64_t MemoryEventStore::do_last_position(const TenantId* tenant) {
  std::int64_t last = 0;
  database_->read([&](const State& state) { last = state.events.last_position(tenant); });
  return last;
}

}  // namespace detail

std::unique_ptr<EventStore> open_event_store(const Database& database) {
  return std::make_unique<detail::MemoryEventStore>(DatabaseAccess::state(database));
}

std::unique_ptr<EventStore> open_event_store(const Clock& clock) {
  return open_event_store(open_database(clock));
}

}  // namespace docket::memory
