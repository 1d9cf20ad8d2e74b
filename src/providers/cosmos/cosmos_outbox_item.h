// The outbox's items: one per staged message, in the producer's partition of the inbox
// container ({prefix}docket_inbox, partition key "/pk"), so that a message commits in the
// same transactional batch as the writes of the unit of work that staged it. Its id is the
// message id (a UUIDv7, the term itself), "docketTable" is "docket_outbox" (kOutboxTable),
// telling it from the dedup items and the application's items there, and "pk" is the
// partition the unit wrote it in (the unit's tenant; the message's own tenant is
// "tenant", the same in every unit the dispatcher or a TenantScope opens).
//
//   sequence, attempts                              number
//   pendingSequence   the sequence, present only while the message is pending
//   parkedSequence    the sequence, present only while it is parked
//                     (the relay's and the operator's queries range over these two, so
//                     they read the pending or parked messages only, in sequence order,
//                     through the range index, never the other items of the container)
//   status            number, kit/outbox_status_code.h (0 pending ... 4 cancelled)
//   tenant, eventType, traceparent, tracestate, destination          string
//   headers           string, kit::encode_headers
//   orderingKey, source, causationId, correlationId, lastError       string or null
//   payload           string, base64 of the bytes
//   occurredAt        string, Unix microseconds as decimal text: the caller's time, which
//                     may lie past what a double holds exactly (cosmos_exact_time.h)
//   createdAt, nextAttemptAt   number, Unix microseconds (docket's times, near now or at
//                     most kMaxDeliverAt: exact in a double; the relay compares them)
//   doneAt            number or null
//   leaseToken, leaseUntil   the relay's lease: string and Unix microseconds, or null
//
// Every change writes the whole item (outbox_item()), so no path leaves a field out and
// the two sparse sequences always agree with the status.
//
// Thread-safety: pure functions.
#ifndef DOCKET_PROVIDERS_COSMOS_COSMOS_OUTBOX_ITEM_H_
#define DOCKET_PROVIDERS_COSMOS_COSMOS_OUTBOX_ITEM_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string_view>

#include "providers/cosmos/cosmos_sequence_counter.h"
#include "providers/kit/outbox_row.h"

namespace docket::cosmos::detail::outbox {

inline constexpr std::string_view kCounterId = "docket_outbox";

inline constexpr std::string_view kSequence = "sequence";
inline constexpr std::string_view kPendingSequence = "pendingSequence";
inline constexpr std::string_view kParkedSequence = "parkedSequence";

// The counter the messages of the URL with `prefix` draw their sequences from.
SequenceCounter sequence_counter(std::string_view prefix);

// The whole item of `row`, without id and pk (the unit sets them at staging; a rewrite
// keeps those it read).
nlohmann::json outbox_item(const kit::OutboxRow& row);

// Gives the message item `item`, staged pending, the sequence `sequence`.
void number_item(nlohmann::json& item, std::int64_t sequence);

// The row an item holds. Throws InfrastructureError naming `store`, the item and the
// property when it is not an item outbox_item() wrote.
kit::OutboxRow outbox_row_of(const nlohmann::json& item, std::string_view store);

}  // namespace docket::cosmos::detail::outbox

#endif  // DOCKET_PROVIDERS_COSMOS_COSMOS_OUTBOX_ITEM_H_
