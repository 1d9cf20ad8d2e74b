#include "providers/kit/unit_streams.h"

#include <algorithm>

namespace docket::kit {

std::optional<VersionConflict> number_events(const StreamId& stream, ExpectedVersion expected,
                                             std::int64_t current,
                                             std::vector<RecordedEvent>& events) {
  if (!expected.matches(current)) {
    return VersionConflict{.subject = stream.describe(),
                           .expected_version = expected.value(),
                           .actual_version = current};
  }
  for (RecordedEvent& event : events) {
    event.version = ++current;
  }
  return std::nullopt;
}

AppendSuccess appended(const std::vector<RecordedEvent>& events) {
  AppendSuccess success{.new_version = events.back().version, .events = {}};
  success.events.reserve(events.size());
  for (const RecordedEvent& event : events) {
    success.events.push_back(AppendedEvent{.version = event.version,
                                           .global_position = event.global_position,
                                           .event_id = event.event_id,
                                           .occurred_at = event.occurred_at});
  }
  return success;
}

ConcurrencyConflictError event_conflict(std::string_view store, const StagedEvent& event,
                                        std::optional<std::int64_t> read) {
  const std::int64_t expected = read.value_or(event.version - 1);
  return ConcurrencyConflictError(
      expected, event.version,
      std::string(store) + ": " + event.stream + " has an event at version " +
          std::to_string(event.version) +
          " already: another unit of work appended to it after this one read it at version " +
          std::to_string(expected) +
          "; nothing of this unit of work was written. Dispatch the message again: its "
          "handler appends after the stream's new events.");
}

}  // namespace docket::kit
