// Names of what the outbox stores, identical on every relational provider and used as
// the memory provider's table names. docs/outbox.md lists the columns.
//
//   docket_outbox   one row per staged message; `sequence` is the feed position
//
// Thread-safety: constants.
#ifndef DOCKET_OUTBOX_OUTBOX_SCHEMA_H_
#define DOCKET_OUTBOX_OUTBOX_SCHEMA_H_

#include <string_view>

namespace docket {

inline constexpr std::string_view kOutboxTable = "docket_outbox";

// The component name of the outbox's row in docket_schema_version. Its version is each
// provider's own (docs/outbox.md, "Schema"): version 2 added the route (destination,
// ordering_key, headers) and the skipped status everywhere; SQLite's version 3 moved the
// relays' leases into a table of their own.
inline constexpr std::string_view kOutboxSchemaComponent = "outbox";

}  // namespace docket

#endif  // DOCKET_OUTBOX_OUTBOX_SCHEMA_H_
