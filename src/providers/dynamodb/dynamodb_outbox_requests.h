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
//   release   (none: on the key item)                   DELETE the sequence FROM held
//
// A keyed message stops holding its key (dynamodb_outbox_table.h) only with a committed
// complete, skip, cancel or purge of it: apply_releasing sends each such change with the
// release of its sequence from its key item as one group of
// apply_where_conditions_hold, so the two are applied together or not at all.
//
// Thread-safety: pure functions, but apply_releasing, which calls a Client that may be
// shared.
#ifndef DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_OUTBOX_REQUESTS_H_
#define DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_OUTBOX_REQUESTS_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>
#include <vector>

#include "docket/core/clock.h"
#include "docket/outbox/outbox_store.h"
#include "providers/dynamodb/dynamodb_client.h"

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

// Removes `sequence` from the held set of the key item under `key_item`: no condition,
// as removing one it does not hold changes nothing.
nlohmann::json release_action(std::string_view table, const nlohmann::json& key_item,
                              std::int64_t sequence);

// A conditional change of one message, and the key its sequence is released from when
// it applies (none for a message without an ordering key).
struct Releasing {
  nlohmann::json action;                   // a TransactItems element on the message
  std::optional<nlohmann::json> key_item;  // key_item_key of its tenant and ordering key
  std::int64_t sequence = 0;
};

// Applies each change of `changes` where its condition holds, each with the release of
// its sequence, together or not at all (apply_where_conditions_hold's groups); returns,
// per change, whether it was applied. Changes of one key item go in successive calls, as
// a TransactWriteItems may name an item once. Throws as apply_where_conditions_hold
// does (dynamodb_conditional_writes.h).
std::vector<bool> apply_releasing(const Client& client, const std::string& table,
                                  std::string_view store, const std::vector<Releasing>& changes);

}  // namespace docket::dynamodb::detail::outbox

#endif  // DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_OUTBOX_REQUESTS_H_
