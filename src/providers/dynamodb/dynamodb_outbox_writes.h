// The outbox's changes of many items at once: each a conditional Update or Delete (a
// TransactItems element), applied where its condition holds, in TransactWriteItems of
// at most 100 actions. DynamoDB cancels a whole transaction when one condition fails,
// so a cancelled request is read by its reasons: an action whose condition failed is
// left out (not applied: another relay's lease, a row done already), one that only met
// another transaction or throttling is kept, and the rest is sent again.
//
// Why this is safe to send again: every request carries a ClientRequestToken, so the
// client's resend after an ambiguous failure (a 5xx, a timeout) is applied once by
// DynamoDB (Replay::kSafe), and the answer to the resend is the answer to the first
// try, never a condition failed on the request's own write. A deliberate new attempt
// after a cancellation (which applied nothing) carries a new token.
//
// Thread-safety: a pure function over a Client that may be shared.
#ifndef DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_OUTBOX_WRITES_H_
#define DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_OUTBOX_WRITES_H_

#include <nlohmann/json.hpp>
#include <string_view>
#include <vector>

#include "providers/dynamodb/dynamodb_client.h"

namespace docket::dynamodb::outbox {

// Applies `actions` (TransactItems elements, each on a distinct item of `table`) where
// their conditions hold; returns, per action, whether it was applied. Throws
// InfrastructureError naming `store` when a reason other than a failed condition, a
// conflict or throttling cancels a request, or when conflicts persist for 25 attempts.
std::vector<bool> apply_where_conditions_hold(const Client& client, std::string_view table,
                                              std::string_view store,
                                              const std::vector<nlohmann::json>& actions);

}  // namespace docket::dynamodb::outbox

#endif  // DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_OUTBOX_WRITES_H_
