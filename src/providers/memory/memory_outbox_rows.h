// Outbox rows in the memory provider's tables: kOutboxTable holds one row per message
// under the key (20-digit zero-padded sequence, so that key order is sequence order);
// kOutboxIdsTable maps each id to its sequence and makes ids unique.
//
// Thread-safety: pure functions.
#ifndef DOCKET_PROVIDERS_MEMORY_MEMORY_OUTBOX_ROWS_H_
#define DOCKET_PROVIDERS_MEMORY_MEMORY_OUTBOX_ROWS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "docket/memory/transaction.h"
#include "docket/outbox/outbox_message.h"
#include "providers/kit/outbox_row.h"

namespace docket::memory::detail {

inline constexpr std::string_view kOutboxIdsTable = "docket_outbox_ids";

// A row's values beyond the record: the lease, which only the relay side sees.
using OutboxRow = kit::OutboxRow;

// The index of the status term in a row's values.
inline constexpr std::size_t kStatusTerm = 11;

Terms sequence_key(std::int64_t sequence);
Terms to_values(const OutboxRow& row);
OutboxRow from_values(const Terms& key, const Terms& values);

}  // namespace docket::memory::detail

#endif  // DOCKET_PROVIDERS_MEMORY_MEMORY_OUTBOX_ROWS_H_
