// Conversions between outbox rows and OutboxRecord: one column list for every SELECT and
// RETURNING, read straight from SQLite's row in the same order (no Row of Values in
// between: a relay's claim reads a thousand rows a round, and each string is copied once,
// from SQLite into the record); and the INSERT's parameters bound as views of the record.
//
// Thread-safety: pure functions; the connection is its caller's.
#ifndef DOCKET_PROVIDERS_SQLITE_SQLITE_OUTBOX_ROWS_H_
#define DOCKET_PROVIDERS_SQLITE_SQLITE_OUTBOX_ROWS_H_

#include <array>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "docket/outbox/outbox_message.h"
#include "providers/sqlite/sqlite_connection.h"
#include "providers/sqlite/sqlite_statement.h"

namespace docket::sqlite::detail {

// The columns read_outbox_record() reads, in its order.
inline constexpr const char* kOutboxColumns =
    "sequence, id, tenant, event_type, payload, occurred_at, message_source, causation_id, "
    "correlation_id, traceparent, tracestate, created_at, status, attempts, next_attempt_at, "
    "last_error, done_at, destination, ordering_key, headers";

// The record of the current row of a statement selecting kOutboxColumns.
OutboxRecord read_outbox_record(const RowView& row);

// Runs `sql` (selecting or returning kOutboxColumns) and returns its records in sequence
// order (RETURNING gives none of its own).
std::vector<OutboxRecord> query_outbox_records(Connection& connection, std::string_view sql,
                                               std::span<const ParamView> params);

// The parameters ?1..?16 of the INSERT in the outbox store, in column order from id to
// next_attempt_at, then destination, ordering_key, headers: views of `record`, and of
// `encoded_headers`, which holds the headers' encoding (kit::encode_headers) and must
// outlive the parameters.
std::array<ParamView, 16> outbox_insert_params(const OutboxRecord& record,
                                               std::string& encoded_headers);

}  // namespace docket::sqlite::detail

#endif  // DOCKET_PROVIDERS_SQLITE_SQLITE_OUTBOX_ROWS_H_
