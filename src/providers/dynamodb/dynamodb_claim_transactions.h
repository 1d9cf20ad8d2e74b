// A batch of claim-inbox writes as TransactWriteItems, each entry settled on its own
// terms (dynamodb_claim_inbox_store.h's batches). A transaction is all or nothing, but
// one entry's claim or mark must not depend on another's: a cancelled transaction is
// read by its reasons, one per action in request order; the entries refused by their own
// condition are handed back with the entry as it was (ALL_OLD, where the action asked
// for it), and the rest, which were not applied, are sent again without them. Each
// round settles at least one entry. The store and the benchmark's raw side both send
// batches through this.
//
// Thread-safety: a pure function of its arguments and the client's.
#ifndef DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_CLAIM_TRANSACTIONS_H_
#define DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_CLAIM_TRANSACTIONS_H_

#include <cstddef>
#include <functional>
#include <nlohmann/json.hpp>
#include <string_view>
#include <vector>

#include "providers/dynamodb/dynamodb_client.h"

namespace docket::dynamodb::claim {

// Sends the actions of the batch entries `pending` (action(i): one TransactItems
// element) to `table`'s server until each is applied or refused by its own condition.
// Calls refused(i, the item as it was, or null) for each refused entry. Returns the
// entries left for a request of their own: a single entry (cheaper alone than as a
// transaction), or those of a round that settled none (transactions of others in
// flight). Every other entry was applied. Each transaction carries a fresh
// ClientRequestToken, so the client's resend after an ambiguous failure is safe.
std::vector<std::size_t> transact_each(
    const Client& client, std::string_view table, std::vector<std::size_t> pending,
    const std::function<nlohmann::json(std::size_t)>& action,
    const std::function<void(std::size_t, const nlohmann::json&)>& refused);

}  // namespace docket::dynamodb::claim

#endif  // DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_CLAIM_TRANSACTIONS_H_
