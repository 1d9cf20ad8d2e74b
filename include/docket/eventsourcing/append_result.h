// The outcome of EventStore::append: either every event of the call was stored
// (AppendSuccess) or none was (a VersionConflict). Never a partial write.
//
// Thread-safety: plain value types.
#ifndef DOCKET_EVENTSOURCING_APPEND_RESULT_H_
#define DOCKET_EVENTSOURCING_APPEND_RESULT_H_

#include <cstdint>
#include <vector>

#include "docket/core/clock.h"
#include "docket/core/uuid.h"
#include "docket/core/version_conflict.h"

namespace docket {

// What the store assigned to one appended event, in the order of the call.
struct AppendedEvent {
  std::int64_t version;
  std::int64_t global_position;  // 0 when assigned only at commit (see EventStore::append)
  Uuid event_id;
  Timestamp occurred_at;

  friend bool operator==(const AppendedEvent&, const AppendedEvent&) = default;
};

struct AppendSuccess {
  std::int64_t new_version;  // the version of the last event appended
  std::vector<AppendedEvent> events;
};

using AppendResult = WriteResult<AppendSuccess>;

}  // namespace docket

#endif  // DOCKET_EVENTSOURCING_APPEND_RESULT_H_
