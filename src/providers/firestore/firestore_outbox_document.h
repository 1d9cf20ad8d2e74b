// The outbox's documents: one per staged message in the collection {prefix}docket_outbox,
// its id the message id (a UUIDv7, the term itself: nothing is composed), and one
// counter document, id kCounterId (not a UUID, so no message has it, and without a
// sequence field, so no query of messages returns it):
//
//   sequence, attempts                               integerValue
//   tenant, eventType, traceparent, tracestate       stringValue
//   status       stringValue   "pending", "done", "parked", "skipped"
//   destination, headers (kit::encode_headers)       stringValue
//   orderingKey                                      stringValue or nullValue
//                (the three absent on a document staged before routing existed: read
//                as the default route, no key, no headers)
//   payload                                          bytesValue (byte for byte)
//   occurredAt, createdAt, nextAttemptAt             timestampValue
//   source, causationId, correlationId, lastError    stringValue or nullValue
//   doneAt                                           timestampValue or nullValue
//   leaseToken   stringValue or nullValue; leaseUntil integerValue (Unix microseconds)
//                or nullValue: the relay's lease
//   counter document: lastSequence (integerValue), the highest sequence handed out
//                (firestore_sequence_counter.h); a message's sequence is drawn from it
//                when its unit of work commits, not when it is staged (number_fields)
//
// Every change writes the whole document (outbox_fields()), so no path leaves a field
// out, except a completion under a remembered lease (firestore_outbox_leases.h), which
// writes the four fields kit::complete changes (completion_write()): the others are as
// the lease's write left them, which its precondition guarantees.
//
// Thread-safety: pure functions.
#ifndef DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_OUTBOX_DOCUMENT_H_
#define DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_OUTBOX_DOCUMENT_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "docket/core/clock.h"
#include "providers/firestore/firestore_documents.h"
#include "providers/firestore/firestore_sequence_counter.h"
#include "providers/kit/outbox_row.h"

namespace docket::firestore::detail::outbox {

inline constexpr std::string_view kCounterId = "docket:outbox:sequence";
inline constexpr std::string_view kLastSequence = "lastSequence";

inline constexpr std::string_view kSequence = "sequence";
inline constexpr std::string_view kStatus = "status";
inline constexpr std::string_view kDoneAt = "doneAt";
inline constexpr std::string_view kNextAttemptAt = "nextAttemptAt";
inline constexpr std::string_view kOrderingKey = "orderingKey";
inline constexpr std::string_view kTenant = "tenant";

// The counter the messages of the collection `collection` draw their sequences from.
SequenceCounter sequence_counter(std::string_view collection);

// The whole document of `row`.
nlohmann::json outbox_fields(const kit::OutboxRow& row);

// Gives the message document `fields` the sequence `sequence`.
void number_fields(nlohmann::json& fields, std::int64_t sequence);

// The write marking message `id` of `collection` done at `now` (kit::complete: status
// done, doneAt, the lease ended) under `update_time`, masked to those fields.
Write completion_write(std::string_view collection, std::string_view id, Timestamp now,
                       std::string update_time);

// The row a document holds. Throws InfrastructureError naming `store`, the document and
// the field when it is not a document outbox_fields() wrote.
kit::OutboxRow outbox_row_of(const Document& document, std::string_view store);

}  // namespace docket::firestore::detail::outbox

#endif  // DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_OUTBOX_DOCUMENT_H_
