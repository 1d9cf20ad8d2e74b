#include "providers/dynamodb/dynamodb_checkpoint_store.h"

#include <string>
#include <utility>
#include <vector>

#include "providers/dynamodb/dynamodb_attribute.h"
#include "providers/dynamodb/dynamodb_client.h"
#include "providers/dynamodb/dynamodb_consistent_reads.h"
#include "providers/dynamodb/dynamodb_expression.h"
#include "providers/dynamodb/dynamodb_limits.h"
#include "providers/dynamodb/dynamodb_pager.h"
#include "providers/dynamodb/dynamodb_table_once.h"
#include "providers/kit/time_codec.h"

namespace docket::dynamodb::detail {
namespace {

constexpr std::string_view kTenant = "tenant";
constexpr std::string_view kConsumerId = "consumer_id";
constexpr std::string_view kPosition = "position";
constexpr std::string_view kUpdatedAt = "updated_at";
// Items one Query or Scan request of a listing evaluates (DynamoDB also stops at 1 MB).
constexpr std::size_t kCheckpointListReadItems = 1000;

TableSchema checkpoint_table_schema(const StoreUrl& url) {
  return TableSchema{.name = url.table_name(kCheckpointTableBase),
                     .partition_key = {std::string(kTenant), KeyType::kString},
                     .sort_key = KeyAttribute{std::string(kConsumerId), KeyType::kString},
                     .global_indexes = {}};
}

class DynamoDbCheckpointStore final : public CheckpointStore {
 public:
  DynamoDbCheckpointStore(std::string_view url, const Clock& clock)
      : client_(parse_store_url(url)),
        table_(checkpoint_table_schema(client_.url())),
        clock_(clock),
        store_("DynamoDB checkpoint store (table '" + table_.name() + "' at " + client_.url().text +
               ")") {}

 protected:
  std::optional<std::string> do_get(const std::string& tenant,
                                    std::string_view consumer_id) override {
    const nlohmann::json key = key_of(tenant, consumer_id);
    table_.ensure(client_);
    const std::optional<nlohmann::json> item = consistent_get(client_, table_.name(), key);
    if (!item) {
      return std::nullopt;
    }
    return std::string(ItemReader(*item, store_).string(kPosition));
  }

  void do_set(const std::string& tenant, std::string_view consumer_id,
              std::string_view position) override {
    nlohmann::json item = key_of(tenant, consumer_id);
    item[std::string(kPosition)] = string_value(position);
    item[std::string(kUpdatedAt)] = number_value(kit::to_micros(clock_.now()));
    check_item(table_.schema(), item);
    table_.ensure(client_);
    client_.call({.operation = "PutItem", .table = table_.name(), .replay = Replay::kSafe},
                 {{"TableName", table_.name()}, {"Item", std::move(item)}});
  }

  // One tenant's checkpoints: a Query of its partition (the consumer id, when given, in
  // the key condition too), in consumer id order; every tenant's: a Scan, filtered by
  // the consumer id when given, in DynamoDB's scan order.
  std::vector<CheckpointEntry> do_list(const CheckpointListRequest& request) override {
    std::string key_condition;
    std::string filter;
    nlohmann::json values = nlohmann::json::object();
    if (request.tenant) {
      key_condition = "#tenant = :tenant";
      values[":tenant"] = string_value(request.tenant->value());
    }
    if (request.consumer_id) {
      std::string& into = request.tenant ? key_condition : filter;
      into += into.empty() ? "#consumer_id = :consumer_id" : " AND #consumer_id = :consumer_id";
      values[":consumer_id"] = string_value(*request.consumer_id);
    }
    nlohmann::json read = {{"TableName", table_.name()},
                           {"ConsistentRead", true},
                           {"Limit", kCheckpointListReadItems}};
    if (!key_condition.empty()) {
      read["KeyConditionExpression"] = key_condition;
    }
    if (!filter.empty()) {
      read["FilterExpression"] = filter;
    }
    if (!values.empty()) {
      read["ExpressionAttributeNames"] = attribute_names({key_condition, filter});
      read["ExpressionAttributeValues"] = std::move(values);
    }
    table_.ensure(client_);
    Pager pager = request.tenant ? Pager::query(client_, std::move(read))
                                 : Pager::scan(client_, std::move(read));
    if (request.after) {
      pager.start_after(key_of(request.after->tenant.value(), request.after->consumer_id));
    }
    std::vector<CheckpointEntry> entries;
    while (entries.size() <= request.limit) {
      const std::optional<nlohmann::json> page = pager.next_page();
      if (!page) {
        break;
      }
      for (const nlohmann::json& item : *page) {
        const ItemReader reader(item, store_);
        entries.push_back(
            CheckpointEntry{.tenant = TenantId::from_stored(reader.string(kTenant)),
                            .consumer_id = std::string(reader.string(kConsumerId)),
                            .position = std::string(reader.string(kPosition)),
                            .updated_at = kit::from_micros(reader.number(kUpdatedAt))});
        if (entries.size() > request.limit) {
          break;  // the one past the limit: a next page exists
        }
      }
    }
    return entries;
  }

 private:
  // The item's primary key, checked against DynamoDB's key limits.
  nlohmann::json key_of(const std::string& tenant, std::string_view consumer_id) const {
    nlohmann::json key = {{std::string(kTenant), string_value(tenant)},
                          {std::string(kConsumerId), string_value(consumer_id)}};
    check_key(table_.schema(), key);
    return key;
  }

  Client client_;
  TableOnce table_;
  const Clock& clock_;
  std::string store_;  // for errors
};

}  // namespace

std::unique_ptr<CheckpointStore> open_checkpoint_store(std::string_view url, const Clock& clock) {
  return std::make_unique<DynamoDbCheckpointStore>(url, clock);
}

}  // namespace docket::dynamodb::detail
