#include "providers/dynamodb/dynamodb_outbox_requests.h"

#include <map>
#include <string>
#include <utility>

#include "providers/dynamodb/dynamodb_attribute.h"
#include "providers/dynamodb/dynamodb_conditional_writes.h"
#include "providers/dynamodb/dynamodb_expression.h"
#include "providers/dynamodb/dynamodb_outbox_table.h"
#include "providers/kit/outbox_status_code.h"
#include "providers/kit/time_codec.h"

namespace docket::dynamodb::detail::outbox {
namespace {

using kit::to_micros;

constexpr std::string_view kHeldBy = "#status = :pending AND #lease_token = :token";
constexpr std::string_view kEndLease = " REMOVE #pending_shard, #lease_token, #lease_until";

nlohmann::json status_value(OutboxStatus status) {
  return number_value(kit::outbox_status_code(status));
}

// {"<operation>": {...}} on the message `id` of `table` with `condition`.
nlohmann::json action(std::string_view operation, std::string_view table, std::string_view id,
                      std::string_view update, std::string_view condition, nlohmann::json values) {
  nlohmann::json body = {{"TableName", table},
                         {"Key", message_key(id)},
                         {"ConditionExpression", condition},
                         {"ExpressionAttributeNames", attribute_names({update, condition})},
                         {"ExpressionAttributeValues", std::move(values)}};
  if (!update.empty()) {
    body["UpdateExpression"] = update;
  }
  return {{operation, std::move(body)}};
}

}  // namespace

nlohmann::json lease_action(std::string_view table, const OutboxRecord& read,
                            std::string_view token, Timestamp now, Timestamp lease_until) {
  return action("Update", table, read.id, "SET #lease_token = :token, #lease_until = :until",
                "#status = :pending AND #attempts = :attempts AND #next_attempt_at <= :now AND "
                "(attribute_not_exists(#lease_until) OR #lease_until <= :now)",
                {{":pending", status_value(OutboxStatus::kPending)},
                 {":attempts", number_value(read.attempts)},
                 {":now", number_value(to_micros(now))},
                 {":token", string_value(token)},
                 {":until", number_value(to_micros(lease_until))}});
}

nlohmann::json complete_action(std::string_view table, std::string_view id, std::string_view token,
                               Timestamp now) {
  return action(
      "Update", table, id,
      "SET #status = :done, #done_at = :now, #done_shard = #feed_shard" + std::string(kEndLease),
      kHeldBy,
      {{":pending", status_value(OutboxStatus::kPending)},
       {":done", status_value(OutboxStatus::kDone)},
       {":token", string_value(token)},
       {":now", number_value(to_micros(now))}});
}

nlohmann::json fail_action(std::string_view table, std::string_view id, std::string_view token,
                           const FailedAttempt& attempt) {
  nlohmann::json values = {{":pending", status_value(OutboxStatus::kPending)},
                           {":token", string_value(token)},
                           {":one", number_value(1)},
                           {":error", string_value(attempt.error)}};
  std::string update = "SET #attempts = #attempts + :one, #last_error = :error";
  if (attempt.park) {
    update += ", #status = :parked, #parked_shard = #feed_shard" + std::string(kEndLease);
    values[":parked"] = status_value(OutboxStatus::kParked);
  } else {
    update += ", #next_attempt_at = :next REMOVE #lease_token, #lease_until";
    values[":next"] = number_value(to_micros(attempt.next_attempt_at));
  }
  return action("Update", table, id, update, kHeldBy, std::move(values));
}

nlohmann::json replay_action(std::string_view table, std::string_view id, Timestamp now) {
  return action("Update", table, id,
                "SET #status = :pending, #attempts = :zero, #next_attempt_at = :now, "
                "#pending_shard = #feed_shard REMOVE #parked_shard, #lease_token, #lease_until",
                "#status = :parked",
                {{":pending", status_value(OutboxStatus::kPending)},
                 {":parked", status_value(OutboxStatus::kParked)},
                 {":zero", number_value(0)},
                 {":now", number_value(to_micros(now))}});
}

nlohmann::json skip_action(std::string_view table, std::string_view id, Timestamp now) {
  return action("Update", table, id,
                "SET #status = :skipped, #done_at = :now REMOVE #parked_shard, #lease_token, "
                "#lease_until",
                "#status = :parked",
                {{":skipped", status_value(OutboxStatus::kSkipped)},
                 {":parked", status_value(OutboxStatus::kParked)},
                 {":now", number_value(to_micros(now))}});
}

nlohmann::json cancel_action(std::string_view table, std::string_view id, Timestamp now) {
  return action("Update", table, id,
                "SET #status = :cancelled, #done_at = :now REMOVE #pending_shard",
                "#status = :pending AND attribute_not_exists(#lease_token)",
                {{":cancelled", status_value(OutboxStatus::kCancelled)},
                 {":pending", status_value(OutboxStatus::kPending)},
                 {":now", number_value(to_micros(now))}});
}

nlohmann::json purge_parked_action(std::string_view table, std::string_view id, Timestamp cutoff) {
  return action("Delete", table, id, "", "#status = :parked AND #next_attempt_at < :cutoff",
                {{":parked", status_value(OutboxStatus::kParked)},
                 {":cutoff", number_value(to_micros(cutoff))}});
}

nlohmann::json purge_action(std::string_view table, std::string_view id, Timestamp cutoff) {
  return action(
      "Delete", table, id, "", "#status = :done AND #done_at < :cutoff",
      {{":done", status_value(OutboxStatus::kDone)}, {":cutoff", number_value(to_micros(cutoff))}});
}

nlohmann::json release_action(std::string_view table, const nlohmann::json& key_item,
                              std::int64_t sequence) {
  nlohmann::json released = nlohmann::json::array({std::to_string(sequence)});
  return {{"Update",
           {{"TableName", table},
            {"Key", key_item},
            {"UpdateExpression", "DELETE #held :released"},
            {"ExpressionAttributeNames", {{"#held", std::string(kHeld)}}},
            {"ExpressionAttributeValues", {{":released", {{"NS", std::move(released)}}}}}}}};
}

std::vector<bool> apply_releasing(const Client& client, const std::string& table,
                                  std::string_view store, const std::vector<Releasing>& changes) {
  // Wave n holds the n-th change of each key item (and, in the first, those without a
  // key), so that no request names a key item twice: DynamoDB refuses that.
  std::vector<std::vector<std::size_t>> waves;
  std::map<std::string, std::size_t> per_key;  // changes of each key item so far
  for (std::size_t i = 0; i < changes.size(); ++i) {
    const std::size_t wave = changes[i].key_item ? per_key[changes[i].key_item->dump()]++ : 0;
    if (waves.size() <= wave) {
      waves.resize(wave + 1);
    }
    waves[wave].push_back(i);
  }
  std::vector<bool> applied(changes.size(), false);
  for (const std::vector<std::size_t>& wave : waves) {
    std::vector<ActionGroup> groups;
    for (const std::size_t i : wave) {
      ActionGroup& group = groups.emplace_back(1, changes[i].action);
      if (changes[i].key_item) {
        group.push_back(release_action(table, *changes[i].key_item, changes[i].sequence));
      }
    }
    const std::vector<bool> done = apply_where_conditions_hold(client, table, store, groups);
    for (std::size_t k = 0; k < wave.size(); ++k) {
      applied[wave[k]] = done[k];
    }
  }
  return applied;
}

}  // namespace docket::dynamodb::detail::outbox
