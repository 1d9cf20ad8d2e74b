// The outbox component of the SQLite schema.
#include <string>

#include "docket/error.h"
#include "docket/outbox_schema.h"
#include "providers/sqlite/sqlite_schema.h"

namespace docket::sqlite::detail {
namespace {

// Version 1. Times are Unix microseconds (UTC). AUTOINCREMENT: a sequence is never
// reused, also after retention deleted the highest rows, so a feed position stays
// unique forever. status: 0 pending, 1 done, 2 parked.
constexpr const char* kOutboxVersion1 = R"sql(
CREATE TABLE IF NOT EXISTS docket_outbox (
  sequence INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  tenant TEXT NOT NULL,
  event_type TEXT NOT NULL,
  payload BLOB NOT NULL,
  occurred_at INTEGER NOT NULL,
  message_source TEXT,
  causation_id TEXT,
  correlation_id TEXT,
  traceparent TEXT NOT NULL,
  tracestate TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  status INTEGER NOT NULL,
  attempts INTEGER NOT NULL,
  next_attempt_at INTEGER NOT NULL,
  lease_token TEXT,
  lease_until INTEGER,
  last_error TEXT,
  done_at INTEGER
);
CREATE INDEX IF NOT EXISTS docket_outbox_pending ON docket_outbox (sequence) WHERE status = 0;
CREATE INDEX IF NOT EXISTS docket_outbox_done ON docket_outbox (done_at) WHERE status = 1;
CREATE INDEX IF NOT EXISTS docket_outbox_parked ON docket_outbox (sequence) WHERE status = 2;
)sql";

}  // namespace

void migrate_outbox_schema(Connection& connection) {
  const std::string component(kOutboxSchemaComponent);
  const auto rows = connection.query(
      "SELECT version FROM docket_schema_version WHERE component = ?1", {component});
  const std::int64_t version = rows.empty() ? 0 : std::get<std::int64_t>(rows[0].at(0));
  if (version > kOutboxSchemaVersion) {
    throw ConfigurationError("SQLite database '" + connection.path() +
                             "' holds outbox schema version " + std::to_string(version) +
                             ", newer than version " + std::to_string(kOutboxSchemaVersion) +
                             " this docket writes; upgrade docket before using this database");
  }
  if (version < 1) {
    connection.exec_script(kOutboxVersion1);
    record_schema_version(connection, component, kOutboxSchemaVersion);
  }
}

}  // namespace docket::sqlite::detail
