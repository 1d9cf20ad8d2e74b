#include "providers/dynamodb/dynamodb_saga_store.h"

#include <algorithm>
#include <string>
#include <utility>

#include "docket/core/error.h"
#include "providers/dynamodb/dynamodb_attribute.h"
#include "providers/dynamodb/dynamodb_claim_table.h"
#include "providers/dynamodb/dynamodb_consistent_reads.h"
#include "providers/dynamodb/dynamodb_expression.h"
#include "providers/dynamodb/dynamodb_item_size.h"
#include "providers/dynamodb/dynamodb_limits.h"
#include "providers/dynamodb/dynamodb_pager.h"
#include "providers/dynamodb/dynamodb_saga_item.h"
#include "providers/kit/saga_listing.h"
#include "providers/kit/store_kind_capabilities.h"
#include "providers/kit/time_codec.h"
#include "providers/kit/unit_sagas.h"

namespace docket::dynamodb::detail {
namespace {

constexpr std::size_t kSagaPurgePageItems = 1000;
// Items one Scan request of a listing evaluates (DynamoDB also stops at 1 MB).
constexpr std::size_t kSagaListScanItems = 1000;

constexpr std::string_view kSagaAbsent = "attribute_not_exists(#pk)";
constexpr std::string_view kAtVersionAndActive = "#version = :expected AND #status = :active";
constexpr std::string_view kSagaUpdate =
    "SET #version = :version, #state = :state, #status = :status, #updated_at = :updated_at";
constexpr std::string_view kSagaCompletes = ", #completed_at = :completed_at, #shard = :shard";
constexpr std::string_view kSagaCompletedBefore = "#completed_at < :cutoff";
constexpr std::string_view kSagaCandidate = "#pk, #saga_type, #completed_at";
constexpr std::string_view kShardCompletedBefore =
    "#shard = :partition AND #completed_at < :cutoff";
constexpr std::string_view kTenantCompletedBefore =
    "#tenant = :partition AND #completed_at < :cutoff";

std::string saga_attribute(std::string_view attribute) {
  return std::string(attribute);
}

}  // namespace

struct DynamoDbSagaStore::Candidate {
  std::int64_t completed_at;
  nlohmann::json key;
};

DynamoDbSagaStore::DynamoDbSagaStore(std::string_view url, const Clock& clock,
                                     std::size_t probe_items, kit::RekeyMarkerCheck marker)
    : ConditionalSagaStore(clock),
      client_(parse_store_url(url)),
      table_(saga::saga_table_schema(client_.url())),
      guard_(table_.name(), saga_attribute(saga::kKey), LegacyKeyKind::kSaga, probe_items),
      store_("DynamoDB saga store (table '" + table_.name() + "' at " + client_.url().text + ")"),
      rekey_marker_(client_, store_, marker) {}

StoreCapabilities DynamoDbSagaStore::capabilities() const noexcept {
  // One item per save (no commit to bound); joins the provider's own units of work.
  return kit::saga_store_capabilities({.joins_handler_writes = true,
                                       .interactive_transactions = false,
                                       .max_writes_per_commit = 0,
                                       .max_bytes_per_commit = 0,
                                       .max_bytes_per_record = kMaxItemBytes,
                                       .feed = FeedKind::kNone,
                                       .server_side_expiry = false,
                                       .shared_between_processes = true});
}

SagaSaveResult DynamoDbSagaStore::do_save(const SaveRequest& request) {
  rekey_marker_.check(client_);
  const bool creates = request.expected_version == kNewSaga;
  // Its started_at is kept by an update (not among its SETs).
  const SagaRecord record = saved_record(request);
  // The whole item, checked against the limits before anything is sent.
  nlohmann::json item = saga::saga_item(table_.schema(), request.saga, record);
  nlohmann::json key = saga::saga_item_key(table_.schema(), request.saga);
  table_.ensure(client_);
  Response response(nlohmann::json::object());
  if (creates) {
    guard_.check(client_);  // a create that assumes nothing is there
    response = client_.call({.operation = "PutItem", .table = table_.name()},
                            {{"TableName", table_.name()},
                             {"Item", std::move(item)},
                             {"ConditionExpression", kSagaAbsent},
                             {"ExpressionAttributeNames", attribute_names({kSagaAbsent})}});
  } else {
    std::string update(kSagaUpdate);
    nlohmann::json values = {{":expected", number_value(request.expected_version)},
                             {":active", string_value(saga::kActive)},
                             {":version", item[saga_attribute(saga::kVersion)]},
                             {":state", item[saga_attribute(saga::kState)]},
                             {":status", item[saga_attribute(saga::kStatus)]},
                             {":updated_at", item[saga_attribute(saga::kUpdatedAt)]}};
    if (record.completed_at) {
      update += kSagaCompletes;
      values[":completed_at"] = item[saga_attribute(saga::kCompletedAt)];
      values[":shard"] = item[saga_attribute(saga::kShard)];
    }
    response =
        client_.call({.operation = "UpdateItem", .table = table_.name()},
                     {{"TableName", table_.name()},
                      {"Key", key},
                      {"UpdateExpression", update},
                      {"ConditionExpression", kAtVersionAndActive},
                      {"ExpressionAttributeNames", attribute_names({update, kAtVersionAndActive})},
                      {"ExpressionAttributeValues", std::move(values)}});
  }
  if (response.ok()) {
    return SagaSaved{.new_version = record.version};
  }
  return refused(request, key);
}

SagaSaveResult DynamoDbSagaStore::refused(const SaveRequest& request, const nlohmann::json& key) {
  const std::optional<SagaRecord> current = read(key);
  if (!current) {
    guard_.check(client_);  // a version read that found nothing
  }
  return refusal(request, current);
}

std::optional<SagaRecord> DynamoDbSagaStore::do_load(const SagaId& saga) {
  rekey_marker_.check(client_);
  const nlohmann::json key = saga::saga_item_key(table_.schema(), saga);
  table_.ensure(client_);
  std::optional<SagaRecord> record = read(key);
  if (!record) {
    guard_.check(client_);  // a load that found nothing
  }
  return record;
}

detail::Unit& DynamoDbSagaStore::joined_unit(HandlerTransaction& transaction) const {
  return detail::joined_unit(transaction, client_, [&](const std::string& reason) {
    return cannot_join_error(transaction, reason);
  });
}

std::optional<SagaRecord> DynamoDbSagaStore::view(detail::Unit& unit, const SagaId& saga) {
  return unit.sagas().view(unit.staged_sagas(), saga, [&] {
    return kit::SagaRead<std::monostate>{.record = do_load(saga), .base = {}};
  });
}

SagaSaveResult DynamoDbSagaStore::do_save_in(HandlerTransaction& transaction,
                                             const SaveRequest& request) {
  rekey_marker_.check(client_);
  detail::Unit& unit = joined_unit(transaction);
  const WriteResult<SagaRecord> next = next_record(request, view(unit, request.saga));
  if (next.is_conflict()) {
    return next.conflict();
  }
  // The whole item, on the condition that the saga is as this unit first read it.
  const std::optional<SagaRecord>& read = unit.sagas().first_read(request.saga).record;
  nlohmann::json put = {{"TableName", table_.name()},
                        {"Item", saga::saga_item(table_.schema(), request.saga, next.success())},
                        {"ReturnValuesOnConditionCheckFailure", "ALL_OLD"}};
  const std::size_t bytes = item_size(put["Item"]);
  std::string condition;
  if (read) {
    condition = kAtVersionAndActive;
    put["ExpressionAttributeValues"] = {{":expected", number_value(read->version)},
                                        {":active", string_value(saga::kActive)}};
  } else {
    condition = kSagaAbsent;
  }
  put["ConditionExpression"] = condition;
  put["ExpressionAttributeNames"] = attribute_names({condition});
  const std::string key = saga::saga_item_key(table_.schema(), request.saga).dump();
  unit.stage_saga({.saga = request.saga,
                   .record = next.success(),
                   .write = {.request = {{"Put", std::move(put)}},
                             .item = table_.name() + '\n' + key,
                             .table = table_.name(),
                             .what = "save of " + request.saga.describe() + " (Put of " + key +
                                     " in table '" + table_.name() + "')",
                             .condition = condition,
                             .role = detail::Role::kSaga,
                             .event = std::nullopt,
                             .sequenced = std::nullopt}},
                  bytes);
  return SagaSaved{.new_version = next.success().version};
}

std::optional<SagaRecord> DynamoDbSagaStore::do_load_in(HandlerTransaction& transaction,
                                                        const SagaId& saga) {
  rekey_marker_.check(client_);
  return view(joined_unit(transaction), saga);
}

std::optional<SagaRecord> DynamoDbSagaStore::read(const nlohmann::json& key) {
  const std::optional<nlohmann::json> item = consistent_get(client_, table_.name(), key);
  if (!item) {
    return std::nullopt;
  }
  return saga::read_saga_item(*item, store_);
}

SagaPage DynamoDbSagaStore::do_list(const SagaListRequest& request) {
  rekey_marker_.check(client_);
  table_.ensure(client_);
  guard_.check(client_);  // an untenanted item would be listed under no tenant
  std::string filter;
  nlohmann::json values = nlohmann::json::object();
  const auto condition = [&](std::string_view text, std::string_view name, nlohmann::json value) {
    filter += filter.empty() ? "" : " AND ";
    filter += text;
    values[std::string(name)] = std::move(value);
  };
  if (request.tenant) {
    condition("#tenant = :tenant", ":tenant", string_value(request.tenant->value()));
  }
  if (request.saga_type) {
    condition("#saga_type = :saga_type", ":saga_type", string_value(*request.saga_type));
  }
  if (request.status) {
    condition(
        "#status = :status", ":status",
        string_value(*request.status == SagaStatus::kCompleted ? saga::kCompleted : saga::kActive));
  }
  if (request.updated_before) {
    condition("#updated_at < :updated_before", ":updated_before",
              number_value(kit::to_micros(*request.updated_before)));
  }
  nlohmann::json scan = {
      {"TableName", table_.name()},
      {"ProjectionExpression", saga::kSummaryProjection},
      {"ExpressionAttributeNames", attribute_names({saga::kSummaryProjection, filter})},
      {"ConsistentRead", true},
      {"Limit", kSagaListScanItems}};
  if (!filter.empty()) {
    scan["FilterExpression"] = filter;
    scan["ExpressionAttributeValues"] = std::move(values);
  }
  Pager pager = Pager::scan(client_, std::move(scan));
  if (request.after) {
    pager.start_after(saga::saga_item_key(table_.schema(), request.after->saga));
  }
  std::vector<SagaSummary> found;
  while (found.size() <= request.limit) {
    const std::optional<nlohmann::json> page = pager.next_page();
    if (!page) {
      break;
    }
    for (const nlohmann::json& item : *page) {
      found.push_back(saga::read_saga_summary(item, store_));
      if (found.size() > request.limit) {
        break;  // the one past the limit: a next page exists
      }
    }
  }
  return kit::saga_list_page(std::move(found), request.limit);
}

std::vector<DynamoDbSagaStore::Candidate> DynamoDbSagaStore::completed(
    std::string_view index, const nlohmann::json& partition, const nlohmann::json& cutoff,
    std::size_t limit) const {
  const std::string_view condition =
      index == saga::kTenantCompletedIndex ? kTenantCompletedBefore : kShardCompletedBefore;
  Pager pager = Pager::query(
      client_, {{"TableName", table_.name()},
                {"IndexName", index},
                {"KeyConditionExpression", condition},
                {"ProjectionExpression", kSagaCandidate},
                {"ExpressionAttributeNames", attribute_names({condition, kSagaCandidate})},
                {"ExpressionAttributeValues", {{":partition", partition}, {":cutoff", cutoff}}},
                {"ScanIndexForward", true},
                {"Limit", std::min(limit, kSagaPurgePageItems)}});
  std::vector<Candidate> found;
  while (found.size() < limit) {
    const std::optional<nlohmann::json> page = pager.next_page();
    if (!page) {
      break;
    }
    for (const nlohmann::json& item : *page) {
      if (found.size() == limit) {
        break;
      }
      const ItemReader reader(item, store_);
      found.push_back(
          {reader.number(saga::kCompletedAt),
           {{saga_attribute(saga::kKey), string_value(reader.string(saga::kKey))},
            {saga_attribute(saga::kSagaType), string_value(reader.string(saga::kSagaType))}}});
    }
  }
  return found;
}

std::size_t DynamoDbSagaStore::do_purge_completed_batch(Timestamp cutoff, std::size_t batch_size,
                                                        const TenantId* tenant) {
  rekey_marker_.check(client_);
  table_.ensure(client_);
  const nlohmann::json before = number_value(kit::to_micros(cutoff));
  std::vector<Candidate> candidates;
  if (tenant != nullptr) {
    candidates =
        completed(saga::kTenantCompletedIndex, string_value(tenant->value()), before, batch_size);
  } else {
    // Each shard's oldest, merged: the batch's oldest are among them.
    for (std::int64_t shard = 0; shard < claim::kShards; ++shard) {
      std::vector<Candidate> found =
          completed(saga::kShardCompletedIndex, number_value(shard), before, batch_size);
      candidates.insert(candidates.end(), std::make_move_iterator(found.begin()),
                        std::make_move_iterator(found.end()));
    }
    std::stable_sort(
        candidates.begin(), candidates.end(),
        [](const Candidate& a, const Candidate& b) { return a.completed_at < b.completed_at; });
    candidates.resize(std::min(candidates.size(), batch_size));
  }
  std::size_t deleted = 0;
  for (const Candidate& candidate : candidates) {
    // Conditional, so that a saga no longer completed before the cutoff stays.
    const Response response =
        client_.call({.operation = "DeleteItem", .table = table_.name()},
                     {{"TableName", table_.name()},
                      {"Key", candidate.key},
                      {"ConditionExpression", kSagaCompletedBefore},
                      {"ExpressionAttributeNames", attribute_names({kSagaCompletedBefore})},
                      {"ExpressionAttributeValues", {{":cutoff", before}}}});
    deleted += response.ok() ? 1 : 0;
  }
  return deleted;
}

std::unique_ptr<SagaStore> open_saga_store(std::string_view url, const Clock& clock) {
  return std::make_unique<DynamoDbSagaStore>(url, clock);
}

}  // namespace docket::dynamodb::detail
