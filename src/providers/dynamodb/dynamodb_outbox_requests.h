// The outbox's conditional changes of one item, as TransactItems elements for
// apply_where_conditions_hold (dynamodb_conditional_writes.h). Each condition is on the item
// itself, so a change decided on a stale index read does not apply:
//
//   lease     pending, attempts as read, due (next_attempt_at <= now) and not leased
//             (no lease_until, or lease_until <= now)  SET lease_token, lease_until
//   complete  pending and lease_token = token          SET status done, done_at,
//             done_shard; REMOVE pending_shard, lease_token, lease_until
//   fail      pending and lease_token = token          ADD one attempt, SET last_error and
//             next_attempt_at, or park (SET status parked, parked_shard; REMOVE
//             pending_shard); REMOVE lease_token, lease_until
//   replay    parked                                    SET status pending, attempts 0,
//             next_attempt_at now, pending_shard; REMOVE parked_shard
//   skip      parked                                    SET status skipped, done_at now;
//             REMOVE parked_shard (a skipped item is in the feed index only)
//   purge     done and done_at < cutoff                 Delete
//
// Thread-safety: pure functions.
#ifndef DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_OUTBOX_REQUESTS_H_
#define DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_OUTBOX_REQUESTS_H_

#include <nlohmann/json.hpp>
#include <string_view>

#include "docket/core/clock.h"
#include "docket/outbox/outbox_store.h"

namespace docket::dynamodb::detail::outbox {

nlohmann::json lease_action(std::string_view table, const OutboxRecord& read,
                            std::string_view token, Timestamp now, Timestamp lease_until);
nlohmann::json complete_action(std::string_view table, std::string_view id, std::string_view token,
                               Timestamp now);
nlohmann::json fail_action(std::string_view table, std::string_view id, std::string_view token,
                           const FailedAttempt& attempt);
nlohmann::json replay_action(std::string_view table, std::string_view id, Timestamp now);
nlohmann::json skip_action(std::string_view table, std::string_view id, Timestamp now);
// Cancels the pending message `id` that no relay claimed (no lease token): kit::cancel.
nlohmann::json cancel_action(std::string_view table, std::string_view id, Timestamp now);
nlohmann::json purge_action(std::string_view table, std::string_view id, Timestamp cutoff);
// Deletes the parked message `id` if its last attempt became due before `cutoff`.
nlohmann::json purge_parked_action(std::string_view table, std::string_view id, Timestamp cutoff);

}  // namespace docket::dynamodb::detail::outbox

#endif  // DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_OUTBOX_REQUESTS_H_
