#include "providers/firestore/firestore_snapshot_store.h"

#include <string>
#include <utility>

#include "docket/core/error.h"
#include "docket/keys/provider.h"
#include "providers/firestore/firestore_client.h"
#include "providers/firestore/firestore_documents.h"
#include "providers/firestore/firestore_limits.h"
#include "providers/firestore/firestore_value.h"
#include "providers/kit/key_bridge.h"
#include "providers/kit/store_kind_capabilities.h"

namespace docket::firestore::detail {
namespace {

constexpr std::string_view kSnapshotVersion = "version";
constexpr std::string_view kSnapshotPayload = "payload";
constexpr std::string_view kSnapshotTakenAt = "takenAt";

// Each refused commit means another save of the stream came in between.
constexpr int kMaxSnapshotRaces = 1000;

class FirestoreSnapshotStore final : public SnapshotStore {
 public:
  FirestoreSnapshotStore(std::string_view url, const Clock& clock)
      : SnapshotStore(clock),
        client_(parse_store_url(url)),
        collection_(client_.url().collection(kSnapshotCollectionBase)),
        store_("Firestore snapshot store (collection '" + collection_ + "' at " +
               client_.url().text + ")") {}

  std::string_view provider_name() const noexcept override { return "firestore"; }

  StoreCapabilities capabilities() const noexcept override {
    return kit::snapshot_store_capabilities({.joins_handler_writes = false,
                                             .interactive_transactions = false,
                                             .max_writes_per_commit = 0,
                                             .max_bytes_per_commit = 0,
                                             .max_bytes_per_record = kMaxDocumentBytes,
                                             .feed = FeedKind::kNone,
                                             .server_side_expiry = false,
                                             .shared_between_processes = true});
  }

 protected:
  SnapshotSaveOutcome do_save(const StreamId& stream, const Snapshot& snapshot) override {
    const std::string id = snapshot_id(stream);
    const nlohmann::json fields = {{kSnapshotVersion, integer_value(snapshot.version)},
                                   {kSnapshotPayload, bytes_value(snapshot.payload)},
                                   {kSnapshotTakenAt, timestamp_value(snapshot.taken_at)}};
    for (int race = 0; race < kMaxSnapshotRaces; ++race) {
      const std::optional<Document> stored = get_document(client_, collection_, id);
      if (stored && reader(*stored).integer(kSnapshotVersion) > snapshot.version) {
        return SnapshotSaveOutcome::kKeptNewer;
      }
      const Write write{.collection = collection_,
                        .id = id,
                        .fields = fields,
                        .precondition = stored ? Precondition{.update_time = stored->update_time}
                                               : Precondition{.exists = false}};
      if (commit(client_, std::span<const Write>(&write, 1), store_).applied) {
        return SnapshotSaveOutcome::kSaved;
      }
    }
    throw InfrastructureError(store_ + ": snapshot '" + id + "' changed under each of " +
                              std::to_string(kMaxSnapshotRaces) +
                              " attempts to save it; retry later");
  }

  std::optional<Snapshot> do_load(const StreamId& stream) override {
    const std::optional<Document> stored = get_document(client_, collection_, snapshot_id(stream));
    if (!stored) {
      return std::nullopt;
    }
    const FieldReader fields = reader(*stored);
    return Snapshot{.version = fields.integer(kSnapshotVersion),
                    .payload = fields.bytes(kSnapshotPayload),
                    .taken_at = fields.timestamp(kSnapshotTakenAt)};
  }

 private:
  static std::string snapshot_id(const StreamId& stream) {
    return kit::snapshot_key(keys::Provider::kFirestore, stream).value;
  }

  FieldReader reader(const Document& document) const {
    return FieldReader(document.fields, store_ + ", document '" + document.id + "'");
  }

  Client client_;
  std::string collection_;
  std::string store_;  // for errors
};

}  // namespace

std::unique_ptr<SnapshotStore> open_snapshot_store(std::string_view url, const Clock& clock) {
  return std::make_unique<FirestoreSnapshotStore>(url, clock);
}

}  // namespace docket::firestore::detail
