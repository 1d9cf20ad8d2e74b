// The events of a memory database: one ordered log of every committed event, indexed
// by stream and by tenant, and the numbering an append gets before it is stored.
//
// Positions: append() gives each event the next position of the log, so positions
// are dense, ascending in commit order, and assigned only when an append is stored
// (at commit, for an append staged by a unit of work).
//
// Thread-safety: none of its own; the memory Database guards it with its lock.
#ifndef DOCKET_PROVIDERS_MEMORY_MEMORY_EVENT_LOG_H_
#define DOCKET_PROVIDERS_MEMORY_MEMORY_EVENT_LOG_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "docket/core/tenant.h"
#include "docket/eventsourcing/append_result.h"
#include "docket/eventsourcing/event.h"
#include "docket/eventsourcing/event_store.h"
#include "docket/eventsourcing/expected_version.h"
#include "docket/eventsourcing/stream_id.h"
#include "providers/kit/unit_streams.h"

namespace docket::memory::detail {

class EventLog {
 public:
  // The stream's last version, or kNoStreamVersion.
  std::int64_t version(const StreamId& stream) const;

  // Stores `events` (numbered by number_events after version(stream)) at the next
  // positions, and returns what they were assigned. All or nothing.
  AppendSuccess append(const StreamId& stream, std::vector<RecordedEvent> events);

  std::vector<RecordedEvent> load(const StreamId& stream, std::int64_t from_version) const;
  ReadAllPage read_all(std::int64_t from_position, std::size_t limit, const TenantId* tenant) const;
  // The newest event's position (of `tenant` only, when not null), 0 when none.
  std::int64_t last_position(const TenantId* tenant) const;

 private:
  std::vector<RecordedEvent> log_;                        // [p - 1] holds position p
  std::map<StreamId, std::vector<std::size_t>> streams_;  // [v] = log index of version v
  std::map<TenantId, std::vector<std::size_t>> tenants_;  // ascending log indexes
};

// number_events and appended: providers/kit/unit_streams.h.
using kit::appended;
using kit::number_events;

}  // namespace docket::memory::detail

#endif  // DOCKET_PROVIDERS_MEMORY_MEMORY_EVENT_LOG_H_
