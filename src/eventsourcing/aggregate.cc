#include "docket/eventsourcing/aggregate.h"

#include <string>

#include "docket/core/error.h"

namespace docket::aggregate_internal {

void check_aggregate_spec(std::string_view aggregate_type, bool has_apply, bool has_encoder,
                          bool has_decoder, std::size_t snapshot_after_events,
                          bool has_snapshot_store) {
  const std::string name = "aggregate spec '" + std::string(aggregate_type) + "'";
  if (!has_apply) {
    throw ConfigurationError(name +
                             " has no apply function. Set AggregateSpec::apply to fold an "
                             "event into the state.");
  }
  if (has_encoder != has_decoder) {
    throw ConfigurationError(name + " has " + (has_encoder ? "an encoder" : "a decoder") +
                             " for snapshots but no " + (has_encoder ? "decoder" : "encoder") +
                             ". Set both encode_snapshot and decode_snapshot, or neither.");
  }
  if (snapshot_after_events > 0 && (!has_encoder || !has_snapshot_store)) {
    throw ConfigurationError(name + " saves a snapshot after " +
                             std::to_string(snapshot_after_events) + " events but has " +
                             (has_encoder ? "no snapshot store" : "no snapshot codecs") +
                             ". Pass a SnapshotStore and both codecs, or set "
                             "snapshot_after_events to 0.");
  }
}

RecordedEvent recorded_event(const StreamId& stream, const NewEvent& event,
                             const AppendedEvent& assigned) {
  return RecordedEvent{.stream = stream,
                       .version = assigned.version,
                       .global_position = assigned.global_position,
                       .event_id = assigned.event_id,
                       .type = event.type,
                       .payload = event.payload,
                       .metadata = event.metadata,
                       .occurred_at = assigned.occurred_at};
}

}  // namespace docket::aggregate_internal
