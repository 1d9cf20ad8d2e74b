#include "providers/firestore/firestore_checkpoint_store.h"

#include <string>
#include <utility>

#include "docket/keys/checkpoint_key.h"
#include "providers/firestore/firestore_client.h"
#include "providers/firestore/firestore_documents.h"
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
