// The raw limit of `docket bench outbox` on DynamoDB (dynamodb_raw_outbox.h).
#include "dynamodb_raw_outbox.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "docket/core/error.h"
#include "docket/core/uuid.h"
#include "providers/dynamodb/dynamodb_attribute.h"
#include "providers/dynamodb/dynamodb_expression.h"
#include "providers/dynamodb/dynamodb_outbox_requests.h"
#include "providers/dynamodb/dynamodb_outbox_table.h"
#include "providers/dynamodb/dynamodb_pager.h"
#include "providers/kit/http/request_count.h"
#include "providers/kit/outbox_status_code.h"
#include "providers/kit/time_codec.h"
#include "raw_relay_pass.h"
#include "wall_clock.h"

namespace docket::bench {
namespace {

namespace dynamo = dynamodb::detail;
namespace outbox = dynamodb::detail::outbox;

// The actions of one TransactWriteItems.
constexpr std::size_t kDynamoDbTransactionActions = 100;
// How many times a TransactWriteItems is sent again after conflicts before the raw side
// gives up: a starved relay says so rather than spin.
constexpr int kDynamoDbMaxConflicts = 100;
// Pages of the pending index one claim round reads past messages it may not lease (leased
// by another relay, or in backoff), and the fewest messages a page reads, as docket's claim.
constexpr int kDynamoDbDuePages = 8;
constexpr std::size_t kDynamoDbMinPage = 32;
constexpr std::string_view kOutboxChecks = "DynamoDB outbox bench check";

}  // namespace

RawOutboxDynamoDb::RawOutboxDynamoDb(const std::string& url, const std::string& source,
                                     const MessageIds& ids, PublishLog& log, std::size_t batch)
    : client_(dynamo::parse_store_url(url),
              {.http = {.request_count = &kit::http::raw_requests()}}),
      table_(outbox::outbox_table_schema(client_.url())),
      counter_(outbox::sequence_counter(table_.name)),
      source_(source),
      ids_(ids),
      log_(log),
      batch_(batch) {}

OutboxRecord RawOutboxDynamoDb::record_of(std::string_view id, std::int64_t sequence,
                                          Timestamp now) const {
  return bench_outbox_record(id, sequence, now, source_);
}

std::int64_t RawOutboxDynamoDb::draw(std::int64_t count) {
  const dynamo::Response response = client_.call(
      {.operation = "UpdateItem", .table = counter_.table, .replay = dynamo::Replay::kSafe},
      {{"TableName", counter_.table},
       {"Key", counter_.key},
       {"UpdateExpression", "ADD #counter :count"},
       {"ExpressionAttributeNames", {{"#counter", counter_.attribute}}},
       {"ExpressionAttributeValues", {{":count", dynamo::number_value(count)}}},
       {"ReturnValues", "UPDATED_NEW"}});
  return dynamo::ItemReader(response.body().value("Attributes", nlohmann::json::object()),
                            "raw DynamoDB outbox baseline")
      .number(counter_.attribute);
}

void RawOutboxDynamoDb::stage(std::size_t message) {
  const std::int64_t sequence = draw(1);
  const dynamo::Response response = client_.call(
      {.operation = "PutItem", .table = table_.name},
      {{"TableName", table_.name},
       {"Item", outbox::message_item(
                    table_, record_of(ids_.id(message), sequence, kit::from_micros(now_micros())))},
       {"ConditionExpression", "attribute_not_exists(id)"}});
  if (!response.ok()) {
    throw InfrastructureError("raw DynamoDB outbox baseline: message " +
                              std::string(ids_.id(message)) + " was staged before");
  }
}

void RawOutboxDynamoDb::fill(std::size_t first, std::size_t count) {
  if (count > kDynamoDbTransactionActions) {
    throw InvalidInputError("raw DynamoDB outbox baseline: a fill of " + std::to_string(count) +
                            " messages is more than one TransactWriteItems holds (" +
                            std::to_string(kDynamoDbTransactionActions) + ")");
  }
  const std::int64_t last = draw(static_cast<std::int64_t>(count));
  const Timestamp now = kit::from_micros(now_micros());
  std::vector<nlohmann::json> puts;
  for (std::size_t m = 0; m < count; ++m) {
    const std::int64_t sequence = last - static_cast<std::int64_t>(count - m) + 1;
    puts.push_back(
        {{"Put",
          {{"TableName", table_.name},
           {"Item", outbox::message_item(table_, record_of(ids_.id(first + m), sequence, now))},
           {"ConditionExpression", "attribute_not_exists(id)"}}}});
  }
  const std::vector<bool> applied = apply(std::move(puts));
  if (std::count(applied.begin(), applied.end(), true) != static_cast<std::ptrdiff_t>(count)) {
    throw InfrastructureError("raw DynamoDB outbox baseline: a fill found messages staged before");
  }
}

std::vector<bool> RawOutboxDynamoDb::apply(std::vector<nlohmann::json> actions) {
  std::vector<bool> applied(actions.size(), false);
  std::vector<std::size_t> left(actions.size());
  for (std::size_t i = 0; i < left.size(); ++i) {
    left[i] = i;
  }
  for (int attempt = 0; !left.empty() && attempt < kDynamoDbMaxConflicts; ++attempt) {
    nlohmann::json items = nlohmann::json::array();
    for (const std::size_t i : left) {
      items.push_back(actions[i]);
    }
    const dynamo::Response response =
        client_.call({.operation = "TransactWriteItems",
                      .table = table_.name,
                      .expected = {dynamo::ErrorKind::kTransactionCanceled,
                                   dynamo::ErrorKind::kTransactionConflict}},
                     {{"TransactItems", std::move(items)}});
    if (response.ok()) {
      for (const std::size_t i : left) {
        applied[i] = true;
      }
      return applied;
    }
    // Drop the actions refused by their own condition (another relay leased the message,
    // or the lease was lost) and send the rest again; a conflict sends them all again.
    const auto& reasons = response.error().cancellation_reasons;
    std::vector<std::size_t> rest;
    for (std::size_t k = 0; k < left.size(); ++k) {
      if (k >= reasons.size() || reasons[k].code != "ConditionalCheckFailed") {
        rest.push_back(left[k]);
      }
    }
    left = std::move(rest);
  }
  if (!left.empty()) {
    throw InfrastructureError("raw DynamoDB outbox baseline: a TransactWriteItems met " +
                              std::to_string(kDynamoDbMaxConflicts) + " conflicts in a row");
  }
  return applied;
}

std::vector<OutboxRecord> RawOutboxDynamoDb::due(Timestamp now, std::size_t wanted) {
  const std::string condition = "#pending_shard = :shard AND #sequence > :after";
  const std::size_t page = std::max(wanted, kDynamoDbMinPage);
  const std::int64_t now_value = kit::to_micros(now);
  std::vector<OutboxRecord> result;
  std::int64_t after = 0;
  for (int pages = 0; pages < kDynamoDbDuePages && result.size() < wanted; ++pages) {
    std::vector<std::pair<std::int64_t, nlohmann::json>> read;
    // The sequence up to which the shards' pages hold every pending message: the lowest
    // last one of a shard that filled its page (none filled: they hold all).
    std::optional<std::int64_t> end;
    for (std::int64_t shard = 0; shard < outbox::kShards; ++shard) {
      const dynamo::Response response = client_.call(
          {.operation = "Query", .table = table_.name, .replay = dynamo::Replay::kSafe},
          {{"TableName", table_.name},
           {"IndexName", outbox::kPendingIndex},
           {"KeyConditionExpression", condition},
           {"ExpressionAttributeNames", dynamo::attribute_names({condition})},
           {"ExpressionAttributeValues",
            {{":shard", dynamo::number_value(shard)}, {":after", dynamo::number_value(after)}}},
           {"Limit", page}});
      const nlohmann::json items = response.body().value("Items", nlohmann::json::array());
      std::int64_t last = 0;
      for (const nlohmann::json& item : items) {
        last = dynamo::ItemReader(item, kOutboxChecks).number(outbox::kSequence);
        read.emplace_back(last, item);
      }
      if (items.size() >= page) {
        end = std::min(end.value_or(last), last);
      }
    }
    std::sort(read.begin(), read.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [sequence, item] : read) {
      if (result.size() == wanted || (end && sequence > *end)) {
        break;
      }
      const auto lease_until =
          dynamo::ItemReader(item, kOutboxChecks).optional_number("lease_until");
      OutboxRecord record = outbox::record_of(item, kOutboxChecks);
      if (kit::to_micros(record.next_attempt_at) <= now_value &&
          (!lease_until || *lease_until <= now_value)) {
        result.push_back(std::move(record));
      }
    }
    if (!end) {
      break;  // every pending message was read
    }
    after = *end;
  }
  return result;
}

LeaseRound<OutboxRecord> RawOutboxDynamoDb::lease_round(std::string_view token, Timestamp now,
                                                        Timestamp lease_until, std::size_t wanted) {
  std::vector<OutboxRecord> candidates = due(now, wanted);
  LeaseRound<OutboxRecord> round{.leased = {}, .read = candidates.size()};
  if (candidates.empty()) {
    return round;
  }
  std::vector<nlohmann::json> leases;
  for (const OutboxRecord& record : candidates) {
    leases.push_back(outbox::lease_action(table_.name, record, token, now, lease_until));
  }
  const std::vector<bool> leased = apply(std::move(leases));
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    if (leased[i]) {
      round.leased.push_back(std::move(candidates[i]));
    }
  }
  return round;
}

RelayTally RawOutboxDynamoDb::relay_pass() {
  const std::string token = Uuid::v4().to_string();
  const Timestamp now = kit::from_micros(now_micros());
  const Timestamp lease_until = kit::from_micros(kit::to_micros(now) + kRawOutboxLeaseMicros);
  std::vector<OutboxRecord> claimed = lease_in_rounds<OutboxRecord>(
      batch_, [&](std::size_t wanted) { return lease_round(token, now, lease_until, wanted); });
  RelayTally tally = publish_in_sequence_order(claimed, log_);
  if (claimed.empty()) {
    return tally;
  }
  const Timestamp done_at = kit::from_micros(now_micros());
  std::vector<nlohmann::json> completes;
  for (const OutboxRecord& record : claimed) {
    completes.push_back(outbox::complete_action(table_.name, record.id, token, done_at));
  }
  const std::vector<bool> done = apply(std::move(completes));
  tally.published = static_cast<std::uint64_t>(std::count(done.begin(), done.end(), true));
  tally.not_done = tally.claimed - tally.published;
  return tally;
}

OutboxRunRows dynamodb_outbox_run_rows(const std::string& url, std::string_view run_id) {
  const dynamo::Client client(dynamo::parse_store_url(url), {.http = {.request_count = nullptr}});
  constexpr std::string_view kOfRun = "#source = :run";
  constexpr std::string_view kIdAndStatus = "#id, #status";
  dynamo::Pager pager = dynamo::Pager::scan(
      client, {{"TableName", outbox::outbox_table_schema(client.url()).name},
               {"ConsistentRead", true},
               {"FilterExpression", kOfRun},
               {"ProjectionExpression", kIdAndStatus},
               {"ExpressionAttributeNames", dynamo::attribute_names({kOfRun, kIdAndStatus})},
               {"ExpressionAttributeValues", {{":run", dynamo::string_value(run_id)}}}});
  OutboxRunRows rows;
  const std::int64_t done = kit::outbox_status_code(OutboxStatus::kDone);
  while (const auto page = pager.next_page()) {
    for (const nlohmann::json& item : *page) {
      const dynamo::ItemReader read(item, kOutboxChecks);
      rows.ids.emplace_back(read.string(outbox::kId));
      rows.done += read.number(outbox::kStatus) == done ? 1 : 0;
    }
  }
  return rows;
}

std::int64_t dynamodb_pending_outbox_rows(const std::string& url) {
  const dynamo::Client client(dynamo::parse_store_url(url), {.http = {.request_count = nullptr}});
  constexpr std::string_view kPending = "attribute_exists(#pending_shard)";
  dynamo::Pager pager = dynamo::Pager::scan(
      client, {{"TableName", outbox::outbox_table_schema(client.url()).name},
               {"ConsistentRead", true},
               {"FilterExpression", kPending},
               {"ProjectionExpression", "#pending_shard"},
               {"ExpressionAttributeNames", dynamo::attribute_names({kPending})}});
  std::int64_t pending = 0;
  while (const auto page = pager.next_page()) {
    pending += static_cast<std::int64_t>(page->size());
  }
  return pending;
}

}  // namespace docket::bench
