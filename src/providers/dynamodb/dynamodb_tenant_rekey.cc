#include "providers/dynamodb/dynamodb_tenant_rekey.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "docket/core/clock.h"
#include "docket/core/error.h"
#include "docket/core/uuid.h"
#include "docket/keys/saga_key.h"
#include "docket/keys/stream_key.h"
#include "docket/keys/tenant_prefix.h"
#include "providers/dynamodb/dynamodb_attribute.h"
#include "providers/dynamodb/dynamodb_claim_table.h"
#include "providers/dynamodb/dynamodb_client.h"
#include "providers/dynamodb/dynamodb_event_item.h"
#include "providers/dynamodb/dynamodb_event_store.h"
#include "providers/dynamodb/dynamodb_item_size.h"
#include "providers/dynamodb/dynamodb_legacy_guard.h"
#include "providers/dynamodb/dynamodb_pager.h"
#include "providers/dynamodb/dynamodb_saga_item.h"
#include "providers/dynamodb/dynamodb_saga_store.h"
#include "providers/dynamodb/dynamodb_table_ensurer.h"
#include "providers/kit/key_bridge.h"
#include "providers/kit/tenant_rekey_procedure.h"

namespace docket::dynamodb::detail {
namespace {

// TransactWriteItems holds 100 actions and 4 MB; a move is two actions, and its weight
// the new item's size (the delete sends a key only). The margin covers the request's
// own names and conditions.
constexpr std::size_t kMovesPerTransaction = 50;
constexpr std::size_t kTransactionWeight = std::size_t{3} * 1024 * 1024;
// Attempts at a transaction that other transactions or throttling cancelled.
constexpr int kRekeyCommitAttempts = 5;
// The attribute in which a release that kept the tenant beside an untenanted key
// named a record's tenant, events and sagas alike (the saga store's own name for it).
constexpr std::string_view kOwnTenantAttribute = saga::kTenant;

constexpr std::string_view kMarkerName = "name";
constexpr std::string_view kMarkerTenant = "tenant";
constexpr std::string_view kMarkerStartedAt = "started_at";
constexpr std::string_view kMarkerStartedBy = "started_by";

std::string marker_table_words(const Client& client) {
  return "DynamoDB table '" + rekey_marker_schema(client.url()).name + "'";
}

nlohmann::json marker_key() {
  return {{std::string(kMarkerName), string_value(kit::kRekeyMarkerKey)}};
}

class DynamoDbRekeyTarget final : public kit::TenantRekeyTarget {
 public:
  explicit DynamoDbRekeyTarget(std::string_view url)
      : url_(url),
        client_(parse_store_url(url)),
        events_table_(client_.url().table_name(kEventsTableBase)),
        sagas_(saga::saga_table_schema(client_.url())) {}

  std::string marker_where() const override { return marker_table_words(client_); }
  std::optional<kit::RekeyMarker> read_marker() const override {
    return read_rekey_marker(client_);
  }

  void write_marker(const kit::RekeyMarker& marker) const override {
    const TableSchema schema = rekey_marker_schema(client_.url());
    ensure_table(client_, schema);
    nlohmann::json item = marker_key();
    item[std::string(kMarkerTenant)] = string_value(marker.tenant);
    item[std::string(kMarkerStartedAt)] =
        number_value(marker.started_at.time_since_epoch().count());
    item[std::string(kMarkerStartedBy)] = string_value(marker.started_by);
    client_.call({.operation = "PutItem", .table = schema.name, .replay = Replay::kSafe},
                 {{"TableName", schema.name}, {"Item", item}});
  }

  void remove_marker() const override {
    const std::string table = rekey_marker_schema(client_.url()).name;
    client_.call({.operation = "DeleteItem", .table = table, .replay = Replay::kSafe},
                 {{"TableName", table}, {"Key", marker_key()}});
  }

  std::vector<StreamId> tenant_streams(const TenantId& tenant) const override {
    std::vector<StreamId> streams;
    std::string last;  // a stream's events share its key, and a Scan returns them together
    for_each_with_prefix(
        kit::RekeyKind::kEvent, keys::stream_tenant_range(key_shape(), tenant.value()).from,
        [&](const ItemReader& reader) {
          const std::string key(reader.string(kStreamAttribute));
          if (key == last) {
            return;
          }
          last = key;
          if (const auto terms = keys::parse_stream_key(key_shape(), key)) {
            const StreamId stream(tenant, terms->aggregate_type, terms->aggregate_id);
            if (std::find(streams.begin(), streams.end(), stream) == streams.end()) {
              streams.push_back(stream);
            }
          }
        });
    return streams;
  }

  std::vector<SagaId> tenant_sagas(const TenantId& tenant) const override {
    std::vector<SagaId> sagas;
    for_each_with_prefix(
        kit::RekeyKind::kSaga, keys::saga_tenant_range(key_shape(), tenant.value()).from,
        [&](const ItemReader& reader) {
          const std::string_view key = reader.string(saga::kKey);
          if (const auto terms = keys::parse_saga_key(key_shape(), key)) {
            sagas.emplace_back(tenant, reader.string(saga::kSagaType), terms->saga_id);
          }
        });
    return sagas;
  }

  std::unique_ptr<EventStore> verifying_event_store() const override {
    return std::make_unique<DynamoDbEventStore>(url_, SystemClock::instance(), kLegacyProbeItems,
                                                kit::RekeyMarkerCheck::kSkip);
  }
  std::unique_ptr<SagaStore> verifying_saga_store() const override {
    return std::make_unique<DynamoDbSagaStore>(url_, SystemClock::instance(), kLegacyProbeItems,
                                               kit::RekeyMarkerCheck::kSkip);
  }

  keys::Provider key_shape() const override { return keys::Provider::kDynamoDb; }

  std::string where(kit::RekeyKind kind) const override {
    return "DynamoDB table '" + table(kind) + "'";
  }

  bool holds_tenant(const TenantId& tenant) const override {
    return any_with_prefix(kit::RekeyKind::kEvent,
                           keys::stream_tenant_range(key_shape(), tenant.value()).from) ||
           any_with_prefix(kit::RekeyKind::kSaga,
                           keys::saga_tenant_range(key_shape(), tenant.value()).from);
  }

  std::vector<kit::LegacyRecord> legacy_records(kit::RekeyKind kind) const override {
    std::vector<kit::LegacyRecord> records;
    if (!table_exists(kind)) {
      return records;
    }
    const bool events = kind == kit::RekeyKind::kEvent;
    const std::string store = "the tenant re-key of " + where(kind);
    // The guard's own filter, reading whole items.
    const LegacyGuard guard(table(kind), key_attribute(kind),
                            events ? LegacyKeyKind::kStream : LegacyKeyKind::kSaga);
    nlohmann::json request = guard.scan_request();
    request.erase("ProjectionExpression");
    Pager pager = Pager::scan(client_, std::move(request));
    while (const std::optional<nlohmann::json> page = pager.next_page()) {
      for (const nlohmann::json& item : *page) {
        const ItemReader reader(item, store);
        const std::string key(reader.string(key_attribute(kind)));
        if (!guard.is_legacy(key)) {
          continue;
        }
        kit::LegacyRecord record;
        record.kind = kind;
        record.key = key;
        record.stream = key;  // a stream's events share its key
        record.document = item;
        if (const auto tenant = reader.optional_string(kOwnTenantAttribute)) {
          record.tenant_field = std::string(*tenant);
        }
        if (events) {
          record.version = reader.number(kVersionAttribute);
          record.event_id = std::string(reader.string("event_id"));
        } else {
          const SagaRecord saga = saga::read_saga_item(item, store);
          record.sort_key = std::string(reader.string(saga::kSagaType));
          record.version = saga.version;
          record.state = saga.state;
        }
        records.push_back(std::move(record));
      }
    }
    return records;
  }

  kit::RekeyMove event_move(const kit::LegacyRecord& record,
                            const StreamId& stream) const override {
    const std::string key = kit::stream_key(key_shape(), stream).value;
    nlohmann::json item = record.document;
    item[std::string(kStreamAttribute)] = string_value(key);
    return kit::RekeyMove{
        .record = &record, .new_key = key, .new_document = item, .weight = item_size(item)};
  }

  kit::RekeyMove saga_move(const kit::LegacyRecord& record, const SagaId& saga) const override {
    nlohmann::json item = record.document;
    item.update(saga::saga_item_key(sagas_, saga));
    item[std::string(saga::kTenant)] = string_value(saga.tenant().value());
    const std::string key = item[std::string(saga::kKey)]["S"].get<std::string>();
    if (item.contains(std::string(saga::kCompletedAt))) {
      item[std::string(saga::kShard)] = number_value(claim::shard_of(key));
    }
    return kit::RekeyMove{
        .record = &record, .new_key = key, .new_document = item, .weight = item_size(item)};
  }

  std::size_t moves_per_write() const override { return kMovesPerTransaction; }
  std::size_t weight_per_write() const override { return kTransactionWeight; }

  bool commit(std::span<const kit::RekeyMove* const> moves,
              std::span<const kit::RekeyMove* const> deletes) const override {
    nlohmann::json actions = nlohmann::json::array();
    for (const kit::RekeyMove* move : moves) {
      const kit::RekeyKind kind = move->record->kind;
      actions.push_back({{"Put",
                          {{"TableName", table(kind)},
                           {"Item", move->new_document},
                           {"ConditionExpression", "attribute_not_exists(#key)"},
                           {"ExpressionAttributeNames", {{"#key", key_attribute(kind)}}}}}});
      actions.push_back(unchanged_delete(*move->record));
    }
    for (const kit::RekeyMove* move : deletes) {
      actions.push_back(unchanged_delete(*move->record));
    }
    if (actions.empty()) {
      return true;
    }
    // A batch is of one kind: a stream's events, or one saga.
    const kit::RekeyKind batch_kind =
        moves.empty() ? deletes.front()->record->kind : moves.front()->record->kind;
    const std::string& table_name = table(batch_kind);
    for (int attempt = 1; attempt <= kRekeyCommitAttempts; ++attempt) {
      // One token per attempt: a resend after a lost answer is applied once.
      const Response response = client_.call(
          {.operation = "TransactWriteItems",
           .table = table_name,
           .replay = Replay::kSafe,
           .expected = {ErrorKind::kTransactionCanceled, ErrorKind::kTransactionConflict}},
          {{"TransactItems", actions}, {"ClientRequestToken", Uuid::v4().to_string()}});
      if (response.ok()) {
        return true;
      }
      const ServiceError& error = response.error();
      bool condition_failed = false;
      for (const CancellationReason& reason : error.cancellation_reasons) {
        condition_failed = condition_failed || reason.code == "ConditionalCheckFailed";
        // Anything but a condition, a conflict or throttling will fail again as sent.
        if (reason.code != "None" && reason.code != "ConditionalCheckFailed" &&
            reason.code != "TransactionConflict" && reason.code != "ThrottlingError") {
          throw InfrastructureError("the tenant re-key of " + where(batch_kind) +
                                    ": TransactWriteItems cancelled: " + reason.code + " (" +
                                    reason.message + "); nothing of the batch was written");
        }
      }
      if (condition_failed) {
        return false;
      }
    }
    throw InfrastructureError("the tenant re-key of " + where(batch_kind) +
                              ": a TransactWriteItems met concurrent transactions (or "
                              "throttling) " +
                              std::to_string(kRekeyCommitAttempts) +
                              " times in a row and was not applied; run again");
  }

  std::optional<nlohmann::json> read_new(const kit::RekeyMove& move) const override {
    const kit::RekeyKind kind = move.record->kind;
    nlohmann::json key = {{key_attribute(kind), move.new_document.at(key_attribute(kind))},
                          {sort_attribute(kind), move.new_document.at(sort_attribute(kind))}};
    const Response response =
        client_.call({.operation = "GetItem", .table = table(kind), .replay = Replay::kSafe},
                     {{"TableName", table(kind)}, {"Key", key}, {"ConsistentRead", true}});
    const auto item = response.body().find("Item");
    if (item == response.body().end()) {
      return std::nullopt;
    }
    return *item;
  }

 private:
  const std::string& table(kit::RekeyKind kind) const {
    return kind == kit::RekeyKind::kEvent ? events_table_ : sagas_.name;
  }
  static std::string key_attribute(kit::RekeyKind kind) {
    return std::string(kind == kit::RekeyKind::kEvent ? kStreamAttribute : saga::kKey);
  }
  static std::string sort_attribute(kit::RekeyKind kind) {
    return std::string(kind == kit::RekeyKind::kEvent ? kVersionAttribute : saga::kSagaType);
  }

  bool table_exists(kit::RekeyKind kind) const {
    return client_
        .call({.operation = "DescribeTable",
               .table = table(kind),
               .replay = Replay::kSafe,
               .expected = {ErrorKind::kResourceNotFound}},
              {{"TableName", table(kind)}})
        .ok();
  }

  // The Scan of the keys (and sort keys) beginning with `prefix`: filtered, so paged
  // to its end (a filter applies after the page is read); nullopt for a missing table.
  std::optional<Pager> scan_with_prefix(kit::RekeyKind kind, const std::string& prefix) const {
    if (!table_exists(kind)) {
      return std::nullopt;
    }
    return Pager::scan(client_,
                       {{"TableName", table(kind)},
                        {"ConsistentRead", true},
                        {"ProjectionExpression", "#key, #sort"},
                        {"FilterExpression", "begins_with(#key, :prefix)"},
                        {"ExpressionAttributeNames",
                         {{"#key", key_attribute(kind)}, {"#sort", sort_attribute(kind)}}},
                        {"ExpressionAttributeValues", {{":prefix", string_value(prefix)}}}});
  }

  // Whether the table holds a key beginning with `prefix`, paged until one is found.
  bool any_with_prefix(kit::RekeyKind kind, const std::string& prefix) const {
    std::optional<Pager> pager = scan_with_prefix(kind, prefix);
    while (pager) {
      const std::optional<nlohmann::json> page = pager->next_page();
      if (!page) {
        return false;
      }
      if (!page->empty()) {
        return true;
      }
    }
    return false;
  }

  // Calls `each` with every item whose key begins with `prefix` (its keys only).
  template <typename Each>
  void for_each_with_prefix(kit::RekeyKind kind, const std::string& prefix, Each each) const {
    std::optional<Pager> pager = scan_with_prefix(kind, prefix);
    if (!pager) {
      return;
    }
    const std::string store = "the tenant re-key's verification of " + where(kind);
    while (const std::optional<nlohmann::json> page = pager->next_page()) {
      for (const nlohmann::json& item : *page) {
        each(ItemReader(item, store));
      }
    }
  }

  // The Delete of a legacy item, conditional on it being unchanged since it was read:
  // an event is never rewritten (its id is the check); a saga's version rises with
  // every save.
  nlohmann::json unchanged_delete(const kit::LegacyRecord& record) const {
    const bool event = record.kind == kit::RekeyKind::kEvent;
    const std::string sort = sort_attribute(record.kind);
    const std::string checked = event ? "event_id" : std::string(saga::kVersion);
    return {{"Delete",
             {{"TableName", table(record.kind)},
              {"Key",
               {{key_attribute(record.kind), record.document.at(key_attribute(record.kind))},
                {sort, record.document.at(sort)}}},
              {"ConditionExpression", "#checked = :checked"},
              {"ExpressionAttributeNames", {{"#checked", checked}}},
              {"ExpressionAttributeValues", {{":checked", record.document.at(checked)}}}}}};
  }

  std::string url_;
  Client client_;
  std::string events_table_;
  TableSchema sagas_;
};

}  // namespace

TableSchema rekey_marker_schema(const StoreUrl& url) {
  return TableSchema{.name = url.table_name(kit::kRekeyMarkerBase),
                     .partition_key = {std::string(kMarkerName), KeyType::kString},
                     .sort_key = std::nullopt,
                     .global_indexes = {}};
}

std::optional<kit::RekeyMarker> read_rekey_marker(const Client& client) {
  const std::string table = rekey_marker_schema(client.url()).name;
  const Response response =
      client.call({.operation = "GetItem",
                   .table = table,
                   .replay = Replay::kSafe,
                   .expected = {ErrorKind::kResourceNotFound}},
                  {{"TableName", table}, {"Key", marker_key()}, {"ConsistentRead", true}});
  if (!response.ok()) {
    return std::nullopt;  // no table: no re-key ever marked this store
  }
  const auto item = response.body().find("Item");
  if (item == response.body().end()) {
    return std::nullopt;
  }
  const ItemReader reader(*item, "the tenant re-key's marker in " + marker_table_words(client));
  return kit::RekeyMarker{
      .tenant = std::string(reader.string(kMarkerTenant)),
      .started_at = Timestamp(std::chrono::microseconds(reader.number(kMarkerStartedAt))),
      .started_by = std::string(reader.string(kMarkerStartedBy))};
}

RekeyMarkerProbe::RekeyMarkerProbe(const Client& client, std::string store,
                                   kit::RekeyMarkerCheck check)
    : once_(std::move(store), marker_table_words(client), check) {}

void RekeyMarkerProbe::check(const Client& client) {
  once_.check([&] { return read_rekey_marker(client); });
}

TenantRekeyReport rekey_legacy_tables(std::string_view url, const TenantRekeyOptions& options) {
  const DynamoDbRekeyTarget target(url);
  TenantRekeyReport report = kit::run_tenant_rekey(target, options);
  report.provider = "dynamodb";
  return report;
}

}  // namespace docket::dynamodb::detail
