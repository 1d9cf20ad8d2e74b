#include "providers/dynamodb/dynamodb_checkpoint_store.h"

#include <string>
#include <utility>

#include "providers/dynamodb/dynamodb_attribute.h"
#include "providers/dynamodb/dynamodb_client.h"
#include "providers/dynamodb/dynamodb_limits.h"
#include "providers/dynamodb/dynamodb_table_once.h"
#include "providers/kit/time_codec.h"

namespace docket::dynamodb::detail {
namespace {

constexpr std::string_view kTenant = "tenant";
constexpr std::string_view kConsumerId = "consumer_id";
constexpr std::string_view kPosition = "position";
constexpr std::string_view kUpdatedAt = "updated_at";

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
    nlohmann::json key = key_of(tenant, consumer_id);
    table_.ensure(client_);
    const Response response = client_.call(
        {.operation = "GetItem", .table = table_.name(), .replay = Replay::kSafe},
        {{"TableName", table_.name()}, {"Key", std::move(key)}, {"ConsistentRead", true}});
    const auto item = response.body().find("Item");
    if (item == response.body().end()) {
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
