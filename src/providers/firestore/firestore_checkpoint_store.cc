#include "providers/firestore/firestore_checkpoint_store.h"

#include <string>
#include <utility>
#include <vector>

#include "docket/keys/checkpoint_key.h"
#include "providers/firestore/firestore_client.h"
#include "providers/firestore/firestore_documents.h"
#include "providers/firestore/firestore_query.h"
#include "providers/firestore/firestore_value.h"

namespace docket::firestore::detail {
namespace {

constexpr std::string_view kCheckpointTenant = "tenant";
constexpr std::string_view kCheckpointConsumerId = "consumerId";
constexpr std::string_view kCheckpointPosition = "position";
constexpr std::string_view kCheckpointUpdatedAt = "updatedAt";

class FirestoreCheckpointStore final : public CheckpointStore {
 public:
  FirestoreCheckpointStore(std::string_view url, const Clock& clock)
      : client_(parse_store_url(url)),
        clock_(clock),
        collection_(client_.url().collection(kCheckpointCollectionBase)),
        store_("Firestore checkpoint store (collection '" + collection_ + "' at " +
               client_.url().text + ")") {}

 protected:
  std::optional<std::string> do_get(const std::string& tenant,
                                    std::string_view consumer_id) override {
    const std::string id = checkpoint_id(tenant, consumer_id);
    const std::optional<Document> document = get_document(client_, collection_, id);
    if (!document) {
      return std::nullopt;
    }
    return FieldReader(document->fields, store_ + ", document '" + id + "'")
        .string(kCheckpointPosition);
  }

  void do_set(const std::string& tenant, std::string_view consumer_id,
              std::string_view position) override {
    const Write write{
        .collection = collection_,
        .id = checkpoint_id(tenant, consumer_id),
        .fields = nlohmann::json{{kCheckpointTenant, string_value(tenant)},
                                 {kCheckpointConsumerId, string_value(consumer_id)},
                                 {kCheckpointPosition, string_value(position)},
                                 {kCheckpointUpdatedAt, timestamp_value(clock_.now())}}};
    commit(client_, std::span<const Write>(&write, 1), store_);
  }

  // A query of the collection, filtered by the tenant and consumer id fields (equality
  // filters on single-field indexes: no composite index needed), in document id order.
  std::vector<CheckpointEntry> do_list(const CheckpointListRequest& request) override {
    std::vector<nlohmann::json> filters;
    if (request.tenant) {
      filters.push_back(
          field_filter(kCheckpointTenant, "EQUAL", string_value(request.tenant->value())));
    }
    if (request.consumer_id) {
      filters.push_back(
          field_filter(kCheckpointConsumerId, "EQUAL", string_value(*request.consumer_id)));
    }
    Query query{.collection = collection_,
                .where = all_of(std::move(filters)),
                .order_by = {{"__name__", false}},
                .limit = request.limit + 1};
    if (request.after) {
      query.start_after = nlohmann::json::array({reference_value(
          client_, collection_,
          checkpoint_id(request.after->tenant.value(), request.after->consumer_id))});
    }
    std::vector<CheckpointEntry> entries;
    for (const Document& document : run_query(client_, query)) {
      const FieldReader fields(document.fields, store_ + ", document '" + document.id + "'");
      entries.push_back(
          CheckpointEntry{.tenant = TenantId::from_stored(fields.string(kCheckpointTenant)),
                          .consumer_id = fields.string(kCheckpointConsumerId),
                          .position = fields.string(kCheckpointPosition),
                          .updated_at = fields.timestamp(kCheckpointUpdatedAt)});
    }
    return entries;
  }

 private:
  static std::string checkpoint_id(const std::string& tenant, std::string_view consumer_id) {
    return keys::compose_checkpoint_key(keys::Provider::kFirestore,
                                        {.tenant = tenant, .consumer_id = std::string(consumer_id)})
        .value;
  }

  Client client_;
  const Clock& clock_;
  std::string collection_;
  std::string store_;  // for errors
};

}  // namespace

std::unique_ptr<CheckpointStore> open_checkpoint_store(std::string_view url, const Clock& clock) {
  return std::make_unique<FirestoreCheckpointStore>(url, clock);
}

}  // namespace docket::firestore::detail
