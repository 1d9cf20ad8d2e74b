// Conversions between outbox rows as SQLite returns them and OutboxRecord: one column
// list for every SELECT and RETURNING, read back in the same order.
//
// Thread-safety: pure functions.
#ifndef DOCKET_PROVIDERS_SQLITE_SQLITE_OUTBOX_ROWS_H_
#define DOCKET_PROVIDERS_SQLITE_SQLITE_OUTBOX_ROWS_H_

#include <cstdint>
#include <vector>

#include "docket/outbox/outbox_message.h"
#include "docket/sqlite/transaction.h"
#include "providers/kit/time_codec.h"

namespace docket::sqlite::detail {

// The columns row_to_record() reads, in its order.
inline constexpr const char* kOutboxColumns =
    "sequence, id, tenant, event_type, payload, occurred_at, message_source, causation_id, "
    "correlation_id, traceparent, tracestate, created_at, status, attempts, next_attempt_at, "
    "last_error, done_at, destination, ordering_key, headers";

OutboxRecord row_to_record(const Row& row);
std::vector<OutboxRecord> rows_to_records(const std::vector<Row>& rows);

// The parameters ?1..?16 of the INSERT in the outbox store, in column order from id to
// next_attempt_at, then destination, ordering_key, headers.
std::vector<Value> record_to_params(const OutboxRecord& record);

}  // namespace docket::sqlite::detail

#endif  // DOCKET_PROVIDERS_SQLITE_SQLITE_OUTBOX_ROWS_H_
