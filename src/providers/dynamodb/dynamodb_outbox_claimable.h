// Which pending messages of the outbox a relay may lease now, lowest sequence first:
// due, not leased, and first of their (tenant, ordering key) with no earlier parked
// message and no earlier sequence held by their key item.
//
// How order per key is kept: the pending index is read from the lowest sequence on,
// unfiltered, as a prefix complete across the shards (up to the lowest last sequence
// of a shard that had more), so the first message of a key met is its earliest pending
// one and holds the later ones; the parked messages with a key are read once per call
// (the parked index: as many items as are parked, never the table). The indexes being
// eventually consistent, each page's keyed candidates are then checked against their
// key items, read with ConsistentRead: that is what makes the order strict. Each
// lease's condition is on the item itself (dynamodb_outbox_requests.h); a message stops
// holding its key only by a committed complete, skip, cancel or purge, which releases
// it from its key item in the same transaction.
//
// Thread-safety: a pure function over a Client that may be shared.
#ifndef DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_OUTBOX_CLAIMABLE_H_
#define DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_OUTBOX_CLAIMABLE_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "docket/core/clock.h"
#include "docket/outbox/outbox_message.h"
#include "providers/dynamodb/dynamodb_client.h"

namespace docket::dynamodb::detail::outbox {

// At most `limit` messages of the outbox table `table` that may be leased at `now`,
// lowest sequence first; fewer where more than a few pages of the pending index hold
// messages that may not be. Throws what the client throws, naming `store` where an
// item is malformed.
std::vector<OutboxRecord> claimable(const Client& client, const std::string& table,
                                    std::string_view store, Timestamp now, std::size_t limit);

}  // namespace docket::dynamodb::detail::outbox

#endif  // DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_OUTBOX_CLAIMABLE_H_
