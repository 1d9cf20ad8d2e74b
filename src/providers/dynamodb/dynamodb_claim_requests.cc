#include "providers/dynamodb/dynamodb_claim_requests.h"

#include <string>

#include "providers/dynamodb/dynamodb_attribute.h"
#include "providers/dynamodb/dynamodb_claim_table.h"
#include "providers/dynamodb/dynamodb_expression.h"
#include "providers/kit/time_codec.h"

namespace docket::dynamodb::detail::claim {
namespace {

using kit::to_micros;

// The id's terms and shard, written by the two calls that may create the entry.
constexpr std::string_view kCreateFields =
    "#tenant = :tenant, #message_id = :message_id, #handler_type = :handler_type, "
    "#shard = :shard, #received_at = if_not_exists(#received_at, :now), "
    "#retry_count = if_not_exists(#retry_count, :zero)";

constexpr std::string_view kClaimUpdate =
    "SET #status = :processing, #owner = :owner, #claim_id = :claim_id, "
    "#lease_until = :lease_until, #updated_at = :now, ";
constexpr std::string_view kClaimable =
    "attribute_not_exists(#id) OR #status IN (:received, :failed) OR "
    "(#status = :processing AND #lease_until <= :now)";

constexpr std::string_view kAbsent = "attribute_not_exists(#id)";

// The token's claim is the entry's current one. An entry claimed before claim ids
// existed has no claim_id, so no token matches it.
constexpr std::string_view kHeld =
    "#status = :processing AND #owner = :owner AND #claim_id = :claim_id";
constexpr std::string_view kMarkProcessed =
    "SET #status = :processed, #processed_at = :now, #updated_at = :now "
    "REMOVE #owner, #claim_id, #lease_until, #next_attempt_at, #failed_due_at";
constexpr std::string_view kRelease =
    "SET #status = :received, #updated_at = :now REMOVE #owner, #claim_id, #lease_until";
constexpr std::string_view kMarkFailed =
    "SET #status = :failed, #retry_count = #retry_count + :one, #last_error = :error, "
    "#next_attempt_at = :next_attempt_at, #failed_due_at = :next_attempt_at, "
    "#updated_at = :now REMOVE #owner, #claim_id, #lease_until";
constexpr std::string_view kRenew = "SET #lease_until = :lease_until, #updated_at = :now";

constexpr std::string_view kTryMarkProcessed =
    "SET #status = :processed, #processed_at = :now, #updated_at = :now, ";
constexpr std::string_view kTryMarkProcessedRemove =
    " REMOVE #owner, #claim_id, #lease_until, #next_attempt_at, #failed_due_at";
constexpr std::string_view kNotProcessed = "attribute_not_exists(#id) OR #status <> :processed";

constexpr std::string_view kRetryNow =
    "SET #next_attempt_at = :now, #failed_due_at = :now, #updated_at = :now";
constexpr std::string_view kFailed = "#status = :failed";

constexpr std::string_view kProcessedBefore = "#status = :processed AND #processed_at < :cutoff";

nlohmann::json status_value(ClaimStatus status) {
  return string_value(to_string(status));
}

nlohmann::json entry_key(const EntryAddress& entry) {
  return {{std::string(kId), string_value(entry.id)}};
}

// An UpdateItem of `entry`: `update` if `condition` holds.
nlohmann::json update(const EntryAddress& entry, const std::string& update,
                      std::string_view condition, nlohmann::json values) {
  return {{"TableName", entry.table},
          {"Key", entry_key(entry)},
          {"UpdateExpression", update},
          {"ConditionExpression", condition},
          {"ExpressionAttributeNames", attribute_names({update, condition})},
          {"ExpressionAttributeValues", std::move(values)}};
}

// The values of kCreateFields.
void add_create_values(nlohmann::json& values, const EntryAddress& entry, const ClaimKey& key) {
  values[":tenant"] = string_value(key.tenant().value());
  values[":message_id"] = string_value(key.message_id());
  values[":handler_type"] = string_value(key.handler_type());
  values[":shard"] = number_value(shard_of(entry.id));
  values[":zero"] = number_value(0);
}

// The values of kHeld, and of kClaimUpdate's owner and claim id; :now.
nlohmann::json held_values(const ClaimToken& token, Timestamp now) {
  return {{":processing", status_value(ClaimStatus::kProcessing)},
          {":owner", string_value(token.owner)},
          {":claim_id", string_value(token.claim_id)},
          {":now", number_value(to_micros(now))}};
}

}  // namespace

nlohmann::json try_claim_request(const EntryAddress& entry, const ClaimKey& key,
                                 const ClaimToken& token, Timestamp now, Timestamp lease_until) {
  nlohmann::json values = held_values(token, now);
  values[":lease_until"] = number_value(to_micros(lease_until));
  values[":received"] = status_value(ClaimStatus::kReceived);
  values[":failed"] = status_value(ClaimStatus::kFailed);
  add_create_values(values, entry, key);
  nlohmann::json request = update(
      entry, std::string(kClaimUpdate) + std::string(kCreateFields) + " REMOVE #failed_due_at",
      kClaimable, std::move(values));
  request["ReturnValues"] = "ALL_NEW";
  request["ReturnValuesOnConditionCheckFailure"] = "ALL_OLD";
  return request;
}

nlohmann::json create_claimed_request(const EntryAddress& entry, const ClaimKey& key,
                                      const ClaimToken& token, Timestamp now,
                                      Timestamp lease_until) {
  const nlohmann::json at = number_value(to_micros(now));
  nlohmann::json item = {{std::string(kId), string_value(entry.id)},
                         {std::string(kStatus), status_value(ClaimStatus::kProcessing)},
                         {std::string(kOwner), string_value(token.owner)},
                         {std::string(kClaimId), string_value(token.claim_id)},
                         {std::string(kLeaseUntil), number_value(to_micros(lease_until))},
                         {std::string(kUpdatedAt), at},
                         {std::string(kReceivedAt), at},
                         {std::string(kRetryCount), number_value(0)},
                         {std::string(kTenant), string_value(key.tenant().value())},
                         {std::string(kMessageId), string_value(key.message_id())},
                         {std::string(kHandlerType), string_value(key.handler_type())},
                         {std::string(kShard), number_value(shard_of(entry.id))}};
  return {{"TableName", entry.table},
          {"Item", std::move(item)},
          {"ConditionExpression", kAbsent},
          {"ExpressionAttributeNames", attribute_names({kAbsent})},
          {"ReturnValuesOnConditionCheckFailure", "ALL_OLD"}};
}

nlohmann::json mark_processed_request(const EntryAddress& entry, const ClaimToken& token,
                                      Timestamp now) {
  nlohmann::json values = held_values(token, now);
  values[":processed"] = status_value(ClaimStatus::kProcessed);
  return update(entry, std::string(kMarkProcessed), kHeld, std::move(values));
}

nlohmann::json release_request(const EntryAddress& entry, const ClaimToken& token, Timestamp now) {
  nlohmann::json values = held_values(token, now);
  values[":received"] = status_value(ClaimStatus::kReceived);
  return update(entry, std::string(kRelease), kHeld, std::move(values));
}

nlohmann::json mark_failed_request(const EntryAddress& entry, const ClaimToken& token,
                                   Timestamp now, const ClaimFailure& failure) {
  nlohmann::json values = held_values(token, now);
  values[":failed"] = status_value(ClaimStatus::kFailed);
  values[":one"] = number_value(1);
  values[":error"] = string_value(failure.error);
  values[":next_attempt_at"] = number_value(to_micros(failure.next_attempt_at));
  return update(entry, std::string(kMarkFailed), kHeld, std::move(values));
}

nlohmann::json renew_request(const EntryAddress& entry, const ClaimToken& token, Timestamp now,
                             Timestamp lease_until) {
  nlohmann::json values = held_values(token, now);
  values[":lease_until"] = number_value(to_micros(lease_until));
  return update(entry, std::string(kRenew), kHeld, std::move(values));
}

nlohmann::json try_mark_processed_request(const EntryAddress& entry, const ClaimKey& key,
                                          Timestamp now) {
  nlohmann::json values = {{":processed", status_value(ClaimStatus::kProcessed)},
                           {":now", number_value(to_micros(now))}};
  add_create_values(values, entry, key);
  return update(entry,
                std::string(kTryMarkProcessed) + std::string(kCreateFields) +
                    std::string(kTryMarkProcessedRemove),
                kNotProcessed, std::move(values));
}

nlohmann::json retry_now_request(const EntryAddress& entry, Timestamp now) {
  nlohmann::json values = {{":failed", status_value(ClaimStatus::kFailed)},
                           {":now", number_value(to_micros(now))}};
  return update(entry, std::string(kRetryNow), kFailed, std::move(values));
}

nlohmann::json get_request(const EntryAddress& entry) {
  return {{"TableName", entry.table}, {"Key", entry_key(entry)}, {"ConsistentRead", true}};
}

nlohmann::json delete_processed_request(const EntryAddress& entry, Timestamp cutoff) {
  return {{"TableName", entry.table},
          {"Key", entry_key(entry)},
          {"ConditionExpression", kProcessedBefore},
          {"ExpressionAttributeNames", attribute_names({kProcessedBefore})},
          {"ExpressionAttributeValues",
           {{":processed", status_value(ClaimStatus::kProcessed)},
            {":cutoff", number_value(to_micros(cutoff))}}}};
}

}  // namespace docket::dynamodb::detail::claim
