#include "providers/cosmos/cosmos_checkpoint_store.h"

#include <string>
#include <utility>
#include <vector>

#include "docket/core/error.h"
#include "docket/keys/checkpoint_key.h"
#include "providers/cosmos/cosmos_client.h"
#include "providers/cosmos/cosmos_items.h"
#include "providers/kit/time_codec.h"

namespace docket::cosmos::detail {
namespace {

class CosmosCheckpointStore final : public CheckpointStore {
 public:
  CosmosCheckpointStore(std::string_view url, const Clock& clock)
      : client_(parse_store_url(url)),
        clock_(clock),
        container_(client_.url().container(kCheckpointContainerBase)),
        store_("Cosmos DB checkpoint store (container '" + container_ + "' at " +
               client_.url().printable + ")") {}

 protected:
  std::optional<std::string> do_get(const std::string& tenant,
                                    std::string_view consumer_id) override {
    const std::string id = checkpoint_id(tenant, consumer_id);
    client_.ensure_container(container_, "/id");
    const std::optional<ReadItem> read =
        read_item(client_, {.container = container_, .id = id, .partition_key = id});
    if (!read) {
      return std::nullopt;
    }
    return text(read->body, "position");
  }

  void do_set(const std::string& tenant, std::string_view consumer_id,
              std::string_view position) override {
    const std::string id = checkpoint_id(tenant, consumer_id);
    client_.ensure_container(container_, "/id");
    upsert_item(client_, {.container = container_, .id = id, .partition_key = id},
                {{"id", id},
                 {"tenant", tenant},
                 {"consumerId", consumer_id},
                 {"position", position},
                 {"updatedAt", kit::to_micros(clock_.now())}});
  }

  std::vector<CheckpointEntry> do_list(const CheckpointListRequest& request) override {
    client_.ensure_container(container_, "/id");
    std::string sql = "SELECT * FROM c WHERE IS_DEFINED(c.consumerId)";
    nlohmann::json parameters = nlohmann::json::array();
    if (request.tenant) {
      sql += " AND c.tenant = @tenant";
      parameters.push_back({{"name", "@tenant"}, {"value", request.tenant->value()}});
    }
    if (request.consumer_id) {
      sql += " AND c.consumerId = @consumer";
      parameters.push_back({{"name", "@consumer"}, {"value", *request.consumer_id}});
    }
    if (request.after) {
      sql += " AND c.id > @after";
      parameters.push_back(
          {{"name", "@after"},
           {"value", checkpoint_id(request.after->tenant.value(), request.after->consumer_id)}});
    }
    sql += " ORDER BY c.id";
    std::vector<CheckpointEntry> entries;
    for (const nlohmann::json& item : query_items(client_,
                                                  {.container = container_,
                                                  .sql = std::move(sql),
                                                  .parameters = std::move(parameters),
                                                  .order = OrderBy{.path = "id"}},
                                                  request.limit + 1)) {
      const nlohmann::json& updated = item.contains("updatedAt") ? item["updatedAt"] : item;
      if (!updated.is_number_integer()) {
        refuse(item, "updatedAt");
      }
      entries.push_back({.tenant = TenantId::from_stored(text(item, "tenant")),
                         .consumer_id = text(item, "consumerId"),
                         .position = text(item, "position"),
                         .updated_at = kit::from_micros(updated.get<std::int64_t>())});
    }
    return entries;
  }

 private:
  // The item id (and partition key) of src/keys' Cosmos DB checkpoint shape. Throws
  // KeyTooLongError (an InvalidInputError) naming the term to shorten past 1,023 bytes.
  static std::string checkpoint_id(const std::string& tenant, std::string_view consumer_id) {
    return keys::compose_checkpoint_key(keys::Provider::kCosmosDb,
                                        {.tenant = tenant, .consumer_id = std::string(consumer_id)})
        .value;
  }

  std::string text(const nlohmann::json& item, const char* name) const {
    if (!item.contains(name) || !item[name].is_string()) {
      refuse(item, name);
    }
    return item[name].get<std::string>();
  }

  [[noreturn]] void refuse(const nlohmann::json& item, const char* name) const {
    throw InfrastructureError(store_ + ": item '" + item.value("id", "?") + "' has no " + name +
                              " as docket writes it; it was not written by docket. Remove it");
  }

  Client client_;
  const Clock& clock_;
  std::string container_;
  std::string store_;
};

}  // namespace

std::unique_ptr<CheckpointStore> open_checkpoint_store(std::string_view url, const Clock& clock) {
  return std::make_unique<CosmosCheckpointStore>(url, clock);
}

}  // namespace docket::cosmos::detail
