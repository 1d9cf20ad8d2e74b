// A sequence counter on Cosmos DB: one item whose number property is the highest sequence
// handed out, raised on the server by a patch `incr` (whose answer is the item as
// patched), so that no two draws share a number and no number is handed out again. The
// outbox's global order (cosmos_outbox_item.h) is drawn from one.
//
// The counter lives in a container of its own, {prefix}docket_sequences, partitioned by
// "/id", one item per counter: a transactional batch holds one partition, and the counter
// in the producer's batch would put every producer in one partition and make every two
// concurrent producers conflict on it.
//
// A unit of work draws once, just before its batch, for all the messages it commits
// (cosmos_unit.h): draw_sequences(..., n) returns the last of n numbers, the messages take
// last - n + 1 .. last in staging order. Drawn at commit, a number is invisible only while
// that batch is in flight, not while the producer's unit is open. A unit whose batch
// another unit of one of its ordering keys overtook draws again (cosmos_outbox_key_item.h).
//
// Gaps: a number drawn and never committed is a gap a pull consumer waits one gap_timeout
// for, then passes (docket/outbox/pull_consumer.h): the batch after the draw was refused,
// failed or overtaken, or the draw was applied twice (it is resent after an ambiguous
// failure, as a lost answer only costs numbers). No gap is ever filled later, so none makes
// a consumer skip a message.
//
// Thread-safety: SequenceCounter is a value; draw_sequences may be called from many
// threads (and processes) at once.
#ifndef DOCKET_PROVIDERS_COSMOS_COSMOS_SEQUENCE_COUNTER_H_
#define DOCKET_PROVIDERS_COSMOS_COSMOS_SEQUENCE_COUNTER_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "providers/cosmos/cosmos_client.h"

namespace docket::cosmos::detail {

inline constexpr std::string_view kSequencesContainerBase = "docket_sequences";

struct SequenceCounter {
  std::string container;  // the counter item's container (partitioned by "/id")
  std::string id;         // its id, also its partition key value

  bool operator==(const SequenceCounter&) const = default;
};

// Raises `counter` by `count` (at least 1), creating the container and the item at 0 where
// they are missing, and returns its new value: the last of the `count` numbers drawn.
// Throws InfrastructureError naming `store` when the answer holds no number.
std::int64_t draw_sequences(const Client& client, const SequenceCounter& counter,
                            std::int64_t count, std::string_view store);

}  // namespace docket::cosmos::detail

#endif  // DOCKET_PROVIDERS_COSMOS_COSMOS_SEQUENCE_COUNTER_H_
