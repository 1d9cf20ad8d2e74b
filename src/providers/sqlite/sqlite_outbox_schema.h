// The outbox component's migration scripts on SQLite: [i] brings the outbox from
// version i to i + 1 (migrate_outbox_schema in sqlite_schema.h applies them). Exposed
// so that a test can build a database at an earlier version.
//
// Thread-safety: constants.
#ifndef DOCKET_PROVIDERS_SQLITE_SQLITE_OUTBOX_SCHEMA_H_
#define DOCKET_PROVIDERS_SQLITE_SQLITE_OUTBOX_SCHEMA_H_

#include <cstdint>
#include <span>

namespace docket::sqlite::detail {

// The version of the outbox schema this release writes on SQLite.
inline constexpr std::int64_t kSqliteOutboxSchemaVersion = 3;

std::span<const char* const> outbox_migrations() noexcept;

}  // namespace docket::sqlite::detail

#endif  // DOCKET_PROVIDERS_SQLITE_SQLITE_OUTBOX_SCHEMA_H_
