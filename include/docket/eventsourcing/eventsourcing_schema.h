// Names of what the event, snapshot and saga stores keep, identical on every
// relational provider. docs/eventsourcing.md lists the columns.
//
//   docket_events     one row per event: global_position (the store-wide order),
//                     unique (tenant, aggregate_type, aggregate_id, version)
//   docket_snapshots  one row per (tenant, aggregate_type, aggregate_id)
//   docket_sagas      one row per (tenant, saga_type, saga_id)
//
// The three tables are one schema component, recorded in docket_schema_version (see
// docket/inbox/inbox_schema.h) beside the inbox's, so one database file can hold both.
//
// Thread-safety: constants.
#ifndef DOCKET_EVENTSOURCING_EVENTSOURCING_SCHEMA_H_
#define DOCKET_EVENTSOURCING_EVENTSOURCING_SCHEMA_H_

#include <cstdint>
#include <string_view>

namespace docket {

inline constexpr std::string_view kEventsTable = "docket_events";
inline constexpr std::string_view kSnapshotsTable = "docket_snapshots";
inline constexpr std::string_view kSagasTable = "docket_sagas";

// The component name in docket_schema_version and the version this release writes. A
// store refuses a database whose version is newer.
inline constexpr std::string_view kEventSourcingSchemaComponent = "eventsourcing";
inline constexpr std::int64_t kEventSourcingSchemaVersion = 6;

}  // namespace docket

#endif  // DOCKET_EVENTSOURCING_EVENTSOURCING_SCHEMA_H_
