// Changes of many items at once, each on its own terms: each a conditional Put, Update
// or Delete (a TransactItems element), or a group of them that must apply together,
// applied where its conditions hold, in TransactWriteItems of at most 100 actions.
// DynamoDB cancels a whole transaction when one condition fails, so a cancelled request
// is read by its reasons: a group with an action whose condition failed is left out
// (not applied: another relay's lease, an outbox row done already, a claim inbox entry
// that exists), one that only met another transaction or throttling is kept, and the
// rest is sent again. The outbox's relay changes (each with the release of its key,
// dynamodb_outbox_requests.h) and the claim inbox's batches are sent this way.
//
// Why this is safe to send again: every request carries a ClientRequestToken, so the
// client's resend after an ambiguous failure (a 5xx, a timeout) is applied once by
// DynamoDB (Replay::kSafe), and the answer to the resend is the answer to the first
// try, never a condition failed on the request's own write. A deliberate new attempt
// after a cancellation (which applied nothing) carries a new token.
//
// Thread-safety: a pure function over a Client that may be shared.
#ifndef DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_CONDITIONAL_WRITES_H_
#define DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_CONDITIONAL_WRITES_H_

#include <cstddef>
#include <functional>
#include <nlohmann/json.hpp>
#include <span>
#include <string_view>
#include <vector>

#include "providers/dynamodb/dynamodb_client.h"

namespace docket::dynamodb::detail {

// Actions applied together or not at all: one TransactWriteItems always holds a whole
// group (so a group has 1 to 100 actions). A lone action is a group of one.
using ActionGroup = std::vector<nlohmann::json>;

// Called for a group whose condition failed, with its index and the item as it was (the
// reason's Item of its first action whose condition failed, where the action asked for
// ALL_OLD; null otherwise).
using RefusedAction = std::function<void(std::size_t index, const nlohmann::json& item)>;

// Applies each group of `groups` (TransactItems elements; no two actions of the groups on
// one item) where the conditions of all its actions hold; returns, per group, whether it
// was applied, and tells `refused` of each group one of whose conditions failed. A group
// whose condition fails is left out and the rest sent again. Throws InfrastructureError
// naming `store` when a reason other than a failed condition, a conflict or throttling
// cancels a request, or when conflicts persist for 25 attempts in a row;
// std::invalid_argument when a group is empty or has over 100 actions.
std::vector<bool> apply_where_conditions_hold(const Client& client, std::string_view table,
                                              std::string_view store,
                                              std::span<const ActionGroup> groups,
                                              const RefusedAction& refused = {});

// The same, each action a group of one.
std::vector<bool> apply_where_conditions_hold(const Client& client, std::string_view table,
                                              std::string_view store,
                                              const std::vector<nlohmann::json>& actions,
                                              const RefusedAction& refused = {});

}  // namespace docket::dynamodb::detail

#endif  // DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_CONDITIONAL_WRITES_H_
