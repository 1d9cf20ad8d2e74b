// The outbox's claim: the key-ordered claim of the kit (kit/key_ordered_claim.h) over
// the pending index's reads (ClaimReads, dynamodb_outbox_claimable.h), leasing the
// messages it selects in one TransactWriteItems per 100, each by a write conditional on
// the item itself (lease_action, dynamodb_outbox_requests.h), so a message another relay
// leased meanwhile is passed over, not leased twice. Where other relays took candidates,
// it selects again, up to kit::kClaimRounds times, before it settles for fewer.
//
// Thread-safety: a pure function over a Client that may be shared; `leased` is called
// on the calling thread.
#ifndef DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_OUTBOX_CLAIM_H_
#define DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_OUTBOX_CLAIM_H_

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "docket/core/clock.h"
#include "docket/outbox/outbox_message.h"
#include "providers/dynamodb/dynamodb_client.h"

namespace docket::dynamodb::detail::outbox {

struct Lease {
  std::string_view token;  // the relay's lease token
  Timestamp now;
  Timestamp until;  // the lease's end
};

// Leases at most `limit` messages of the outbox table `table` under `lease`; returns
// them lowest sequence first, and tells `leased` of each as it is leased. Throws what
// apply_where_conditions_hold (dynamodb_conditional_writes.h) and the reads throw,
// naming `store`.
std::vector<OutboxRecord> claim(const Client& client, const std::string& table,
                                std::string_view store, const Lease& lease, std::size_t limit,
                                const std::function<void(const OutboxRecord&)>& leased);

}  // namespace docket::dynamodb::detail::outbox

#endif  // DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_OUTBOX_CLAIM_H_
