// The Cosmos DB outbox's claim: which pending messages a relay may lease, and their
// leases, without reading the whole container.
//
// Reads: the pending messages are those with a pendingSequence (cosmos_outbox_item.h), read
// by one query across partitions, `c.pendingSequence > @after ORDER BY
// c.pendingSequence`, a page at a time from the lowest on: a range over the one indexed
// property only pending messages carry, so the done, parked and dedup items and the
// application's are never read. The parked messages with an ordering key are read once
// per claim by the same kind of query on parkedSequence (as many items as are parked).
//
// What it may lease is decided by the kit's key-ordered claim (kit/key_ordered_claim.h),
// over these reads. Order per key: the pending messages are met from the lowest sequence
// on, so the first one of a (tenant, ordering key) met is the key's earliest pending one:
// it holds every later one, and it is itself held by a parked message of its key with a
// lower sequence. No key item is read: staging makes per key commit order equal to
// sequence order (cosmos_outbox_key_item.h), so no message of a key the query has not
// shown yet can commit below one it showed.
//
// Leases: each candidate is rewritten whole with its lease under If-Match with the etag
// the query read, so of concurrent relays exactly one leases it (the others get 412 and
// pass it); a round's candidates of one partition go in one transactional batch, and the
// store remembers each lease's etag for its completion (cosmos_outbox_leases.h). Where
// some were taken, the claim selects again, up to kit::kClaimRounds times.
//
// Thread-safety: a pure function over a Client that may be shared.
#ifndef DOCKET_PROVIDERS_COSMOS_COSMOS_OUTBOX_CLAIM_H_
#define DOCKET_PROVIDERS_COSMOS_COSMOS_OUTBOX_CLAIM_H_

#include <cstddef>
#include <string_view>
#include <vector>

#include "docket/core/clock.h"
#include "docket/outbox/outbox_message.h"
#include "providers/cosmos/cosmos_outbox_leases.h"
#include "providers/cosmos/cosmos_outbox_messages.h"
#include "providers/cosmos/cosmos_partition_range_cache.h"

namespace docket::cosmos::detail::outbox {

// OutboxStore::claim on the messages of `place`: leases to `token` until `lease_until` at
// most `limit` pending messages due at `now`, not leased and not held by their key, and
// returns them in sequence order; `leases` remembers the leases it wrote; the pending
// queries take the partition key ranges from `ranges` (a claim is where a stale list only
// delays: cosmos_partition_range_cache.h).
std::vector<OutboxRecord> claim_messages(const MessagePlace& place, OutboxLeases& leases,
                                         PartitionRangeCache& ranges, std::string_view token,
                                         Timestamp now, Timestamp lease_until, std::size_t limit);

}  // namespace docket::cosmos::detail::outbox

#endif  // DOCKET_PROVIDERS_COSMOS_COSMOS_OUTBOX_CLAIM_H_
