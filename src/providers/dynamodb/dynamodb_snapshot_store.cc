#include "providers/dynamodb/dynamodb_snapshot_store.h"

#include <string>
#include <utility>

#include "docket/keys/provider.h"
#include "providers/dynamodb/dynamodb_attribute.h"
#include "providers/dynamodb/dynamodb_client.h"
#include "providers/dynamodb/dynamodb_consistent_reads.h"
#include "providers/dynamodb/dynamodb_limits.h"
#include "providers/dynamodb/dynamodb_table_once.h"
#include "providers/kit/key_bridge.h"
#include "providers/kit/store_kind_capabilities.h"
#include "providers/kit/time_codec.h"

namespace docket::dynamodb::detail {
namespace {

constexpr std::string_view kId = "id";
constexpr std::string_view kVersion = "version";
constexpr std::string_view kPayload = "payload";
constexpr std::string_view kTakenAt = "taken_at";

TableSchema snapshot_table_schema(const StoreUrl& url) {
  return TableSchema{.name = url.table_name(kSnapshotTableBase),
                     .partition_key = {std::string(kId), KeyType::kString},
                     .sort_key = std::nullopt,
                     .global_indexes = {}};
}

class DynamoDbSnapshotStore final : public SnapshotStore {
 public:
  DynamoDbSnapshotStore(std::string_view url, const Clock& clock)
      : SnapshotStore(clock),
        client_(parse_store_url(url)),
        table_(snapshot_table_schema(client_.url())),
        store_("DynamoDB snapshot store (table '" + table_.name() + "' at " + client_.url().text +
               ")") {}

  std::string_view provider_name() const noexcept override { return "dynamodb"; }

  StoreCapabilities capabilities() const noexcept override {
    return kit::snapshot_store_capabilities({.joins_handler_writes = false,
                                             .interactive_transactions = false,
                                             .max_writes_per_commit = 0,
                                             .max_bytes_per_commit = 0,
                                             .max_bytes_per_record = kMaxItemBytes,
                                             .feed = FeedKind::kNone,
                                             .server_side_expiry = false,
                                             .shared_between_processes = true});
  }

 protected:
  SnapshotSaveOutcome do_save(const StreamId& stream, const Snapshot& snapshot) override {
    nlohmann::json item = key_of(stream);
    item[std::string(kVersion)] = number_value(snapshot.version);
    item[std::string(kPayload)] = binary_value(snapshot.payload);
    item[std::string(kTakenAt)] = number_value(kit::to_micros(snapshot.taken_at));
    check_item(table_.schema(), item);
    table_.ensure(client_);
    const Response response = client_.call(
        {.operation = "PutItem", .table = table_.name(), .replay = Replay::kSafe},
        {{"TableName", table_.name()},
         {"Item", std::move(item)},
         {"ConditionExpression", "attribute_not_exists(#id) OR #version <= :version"},
         {"ExpressionAttributeNames", {{"#id", kId}, {"#version", kVersion}}},
         {"ExpressionAttributeValues", {{":version", number_value(snapshot.version)}}}});
    return response.ok() ? SnapshotSaveOutcome::kSaved : SnapshotSaveOutcome::kKeptNewer;
  }

  std::optional<Snapshot> do_load(const StreamId& stream) override {
    const nlohmann::json key = key_of(stream);
    table_.ensure(client_);
    const std::optional<nlohmann::json> item = consistent_get(client_, table_.name(), key);
    if (!item) {
      return std::nullopt;
    }
    const ItemReader reader(*item, store_);
    return Snapshot{.version = reader.number(kVersion),
                    .payload = reader.binary(kPayload),
                    .taken_at = kit::from_micros(reader.number(kTakenAt))};
  }

 private:
  // The item's primary key, checked against DynamoDB's key limits.
  nlohmann::json key_of(const StreamId& stream) const {
    nlohmann::json key = {
        {std::string(kId),
         string_value(kit::snapshot_key(keys::Provider::kDynamoDb, stream).value)}};
    check_key(table_.schema(), key);
    return key;
  }

  Client client_;
  TableOnce table_;
  std::string store_;  // for errors
};

}  // namespace

std::unique_ptr<SnapshotStore> open_snapshot_store(std::string_view url, const Clock& clock) {
  return std::make_unique<DynamoDbSnapshotStore>(url, clock);
}

}  // namespace docket::dynamodb::detail
