// The DynamoDB outbox's reads for the key-ordered claim (kit/key_ordered_claim.h, which
// decides what a relay may lease: due, not leased, and first of their (tenant, ordering
// key) with no earlier parked message and no earlier sequence held by their key item).
//
// How order per key is kept: the pending index is read from the lowest sequence on,
// unfiltered, as a prefix complete across the shards (up to the lowest last sequence
// of a shard that had more), so the first message of a key met is its earliest pending
// one and holds the later ones; the parked messages with a key are read once per
// selection (the parked index: as many items as are parked, never the table). The indexes
// being eventually consistent, each page's keyed candidates are then checked against
// their key items, read with ConsistentRead (held_back): that is what makes the order
// strict. Each lease's condition is on the item itself (dynamodb_outbox_requests.h); a
// message stops holding its key only by a committed complete, skip, cancel or purge,
// which releases it from its key item in the same transaction.
//
// Thread-safety: a ClaimReads belongs to one claim on one thread; the Client it reads
// through may be shared.
#ifndef DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_OUTBOX_CLAIMABLE_H_
#define DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_OUTBOX_CLAIMABLE_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "docket/core/clock.h"
#include "docket/outbox/outbox_message.h"
#include "providers/dynamodb/dynamodb_client.h"
#include "providers/kit/key_ordered_claim.h"

namespace docket::dynamodb::detail::outbox {

// The reads of one claim of the outbox table `table` at `now`; `store` names it in errors
// (a malformed item). Leaves lease() to the claim (dynamodb_outbox_claim.h).
class ClaimReads : public kit::KeyOrderedSource {
 public:
  ClaimReads(const Client& client, const std::string& table, std::string_view store, Timestamp now)
      : client_(client), table_(table), store_(store), now_(now) {}

  kit::ParkedKeyHeads parked_key_heads() override;
  kit::PendingPage pending_after(std::int64_t after, std::size_t page) override;
  std::vector<bool> held_back(std::span<const OutboxRecord> candidates) override;

 protected:
  const Client& client_;
  const std::string& table_;
  std::string_view store_;
  Timestamp now_;
};

}  // namespace docket::dynamodb::detail::outbox

#endif  // DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_OUTBOX_CLAIMABLE_H_
