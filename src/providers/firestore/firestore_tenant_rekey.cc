#include "providers/firestore/firestore_tenant_rekey.h"

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "docket/core/clock.h"
#include "docket/keys/saga_key.h"
#include "docket/keys/stream_key.h"
#include "docket/keys/tenant_prefix.h"
#include "providers/firestore/firestore_client.h"
#include "providers/firestore/firestore_documents.h"
#include "providers/firestore/firestore_event_document.h"
#include "providers/firestore/firestore_event_store.h"
#include "providers/firestore/firestore_legacy_guard.h"
#include "providers/firestore/firestore_limits.h"
#include "providers/firestore/firestore_query.h"
#include "providers/firestore/firestore_saga_document.h"
#include "providers/firestore/firestore_saga_store.h"
#include "providers/firestore/firestore_value.h"
#include "providers/kit/key_bridge.h"
#include "providers/kit/tenant_rekey_procedure.h"

namespace docket::firestore::detail {
namespace {

// A move is two writes of one commit; its weight is the new document's JSON, which
// is more than its stored size, so the commit stays under its byte limit.
constexpr std::size_t kRekeyMovesPerCommit = kMaxWritesPerCommit / 2;
constexpr std::size_t kRekeyCommitWeight = kMaxCommitBytes * 3 / 4;
// Documents read a page.
constexpr std::size_t kRekeyPageDocuments = 300;
constexpr std::string_view kName = "__name__";

constexpr std::string_view kMarkerTenant = "tenant";
constexpr std::string_view kMarkerStartedAt = "startedAt";
constexpr std::string_view kMarkerStartedBy = "startedBy";

std::string marker_collection_words(const Client& client) {
  return "Firestore collection '" + rekey_marker_collection(client) + "'";
}

class FirestoreRekeyTarget final : public kit::TenantRekeyTarget {
 public:
  explicit FirestoreRekeyTarget(std::string_view url)
      : url_(url),
        client_(parse_store_url(url)),
        events_(client_.url().collection(event::kCollection)),
        sagas_(client_.url().collection(saga::kCollection)) {}

  std::string marker_where() const override { return marker_collection_words(client_); }
  std::optional<kit::RekeyMarker> read_marker() const override {
    return read_rekey_marker(client_);
  }

  void write_marker(const kit::RekeyMarker& marker) const override {
    const Write write{.collection = rekey_marker_collection(client_),
                      .id = std::string(kit::kRekeyMarkerKey),
                      .fields = nlohmann::json{
                          {std::string(kMarkerTenant), string_value(marker.tenant)},
                          {std::string(kMarkerStartedAt), timestamp_value(marker.started_at)},
                          {std::string(kMarkerStartedBy), string_value(marker.started_by)}}};
    firestore::detail::commit(client_, std::span<const Write>(&write, 1),
                              "docket migrate tenant-rekey (its marker)");
  }

  void remove_marker() const override {
    const Write write{.collection = rekey_marker_collection(client_),
                      .id = std::string(kit::kRekeyMarkerKey),
                      .fields = std::nullopt};
    firestore::detail::commit(client_, std::span<const Write>(&write, 1),
                              "docket migrate tenant-rekey (its marker)");
  }

  std::vector<StreamId> tenant_streams(const TenantId& tenant) const override {
    std::vector<StreamId> streams;
    for_each_in(kit::RekeyKind::kEvent, keys::stream_tenant_range(key_shape(), tenant.value()),
                [&](const std::string& id) {
                  if (const auto terms = keys::parse_event_document_id(key_shape(), id)) {
                    const StreamId stream(tenant, terms->stream.aggregate_type,
                                          terms->stream.aggregate_id);
                    // Documents come in id order: a stream's events follow each other.
                    if (streams.empty() || !(streams.back() == stream)) {
                      streams.push_back(stream);
                    }
                  }
                });
    return streams;
  }

  std::vector<SagaId> tenant_sagas(const TenantId& tenant) const override {
    std::vector<SagaId> sagas;
    for_each_in(kit::RekeyKind::kSaga, keys::saga_tenant_range(key_shape(), tenant.value()),
                [&](const std::string& id) {
                  if (const auto terms = keys::parse_saga_key(key_shape(), id)) {
                    sagas.emplace_back(tenant, terms->saga_type, terms->saga_id);
                  }
                });
    return sagas;
  }

  std::unique_ptr<EventStore> verifying_event_store() const override {
    return std::make_unique<FirestoreEventStore>(url_, SystemClock::instance(),
                                                 kit::RekeyMarkerCheck::kSkip);
  }
  std::unique_ptr<SagaStore> verifying_saga_store() const override {
    return std::make_unique<FirestoreSagaStore>(url_, SystemClock::instance(),
                                                kit::RekeyMarkerCheck::kSkip);
  }

  keys::Provider key_shape() const override { return keys::Provider::kFirestore; }

  std::string where(kit::RekeyKind kind) const override {
    return "Firestore collection '" + collection(kind) + "'";
  }

  bool holds_tenant(const TenantId& tenant) const override {
    return any_in(kit::RekeyKind::kEvent, keys::stream_tenant_range(key_shape(), tenant.value())) ||
           any_in(kit::RekeyKind::kSaga, keys::saga_tenant_range(key_shape(), tenant.value()));
  }

  std::vector<kit::LegacyRecord> legacy_records(kit::RekeyKind kind) const override {
    const bool events = kind == kit::RekeyKind::kEvent;
    const LegacyGuard guard(collection(kind),
                            events ? LegacyKeyKind::kStream : LegacyKeyKind::kSaga);
    std::vector<kit::LegacyRecord> records;
    query_pages(client_, {.collection = collection(kind), .where = guard.outside_filter(client_)},
                kRekeyPageDocuments, [&](std::vector<Document>& page) {
                  for (Document& document : page) {
                    if (guard.is_legacy(document.id)) {
                      records.push_back(record_of(kind, std::move(document)));
                    }
                  }
                  return true;
                });
    return records;
  }

  kit::RekeyMove event_move(const kit::LegacyRecord& record,
                            const StreamId& stream) const override {
    nlohmann::json fields = record.document;
    fields[std::string(event::kTenant)] = string_value(stream.tenant().value());
    fields[std::string(event::kAggregateType)] = string_value(stream.aggregate_type());
    fields[std::string(event::kAggregateId)] = string_value(stream.aggregate_id());
    return move_of(record, kit::event_document_id(key_shape(), stream, record.version).value,
                   std::move(fields));
  }

  kit::RekeyMove saga_move(const kit::LegacyRecord& record, const SagaId& saga) const override {
    nlohmann::json fields = record.document;
    fields[std::string(saga::kTenant)] = string_value(saga.tenant().value());
    fields[std::string(saga::kSagaType)] = string_value(saga.saga_type());
    fields[std::string(saga::kSagaId)] = string_value(saga.saga_id());
    return move_of(record, kit::saga_key(key_shape(), saga).value, std::move(fields));
  }

  std::size_t moves_per_write() const override { return kRekeyMovesPerCommit; }
  std::size_t weight_per_write() const override { return kRekeyCommitWeight; }

  bool commit(std::span<const kit::RekeyMove* const> moves,
              std::span<const kit::RekeyMove* const> deletes) const override {
    std::vector<Write> writes;
    for (const kit::RekeyMove* move : moves) {
      writes.push_back(Write{.collection = collection(move->record->kind),
                             .id = move->new_key,
                             .fields = move->new_document,
                             .precondition = {.exists = false}});
      writes.push_back(unchanged_delete(*move->record));
    }
    for (const kit::RekeyMove* move : deletes) {
      writes.push_back(unchanged_delete(*move->record));
    }
    if (writes.empty()) {
      return true;
    }
    return firestore::detail::commit(client_, writes, "docket migrate tenant-rekey").applied;
  }

  std::optional<nlohmann::json> read_new(const kit::RekeyMove& move) const override {
    std::optional<Document> held =
        get_document(client_, collection(move.record->kind), move.new_key);
    if (!held) {
      return std::nullopt;
    }
    return std::move(held->fields);
  }

 private:
  const std::string& collection(kit::RekeyKind kind) const {
    return kind == kit::RekeyKind::kEvent ? events_ : sagas_;
  }

  kit::LegacyRecord record_of(kit::RekeyKind kind, Document document) const {
    const std::string what = where(kind) + ", document '" + document.id + "'";
    const FieldReader reader(document.fields, what);
    kit::LegacyRecord record;
    record.kind = kind;
    record.key = document.id;
    record.stream =
        kind == kit::RekeyKind::kEvent ? std::string(legacy_stream_of(document.id)) : document.id;
    record.tenant_field =
        reader.optional_string(kind == kit::RekeyKind::kEvent ? event::kTenant : saga::kTenant);
    if (kind == kit::RekeyKind::kEvent) {
      record.fields = {.type = reader.optional_string(event::kAggregateType),
                       .id = reader.optional_string(event::kAggregateId)};
      record.version = reader.integer(event::kVersion);
      record.event_id = reader.string(event::kEventId);
    } else {
      record.fields = {.type = reader.optional_string(saga::kSagaType),
                       .id = reader.optional_string(saga::kSagaId)};
      const SagaRecord saga = saga::saga_record_of(document, what);
      record.version = saga.version;
      record.state = saga.state;
    }
    record.document = std::move(document.fields);
    record.revision = std::move(document.update_time);
    return record;
  }

  static kit::RekeyMove move_of(const kit::LegacyRecord& record, std::string id,
                                nlohmann::json fields) {
    const std::size_t weight = fields.dump().size() + id.size();
    return kit::RekeyMove{.record = &record,
                          .new_key = std::move(id),
                          .new_document = std::move(fields),
                          .weight = weight};
  }

  Write unchanged_delete(const kit::LegacyRecord& record) const {
    return Write{.collection = collection(record.kind),
                 .id = record.key,
                 .fields = std::nullopt,
                 .precondition = {.update_time = record.revision}};
  }

  // The query of the documents whose ids lie in `range`.
  Query in_range(kit::RekeyKind kind, const keys::TenantKeyRange& range) const {
    const std::string& name = collection(kind);
    return {.collection = name,
            .where = all_of(
                {field_filter(kName, "GREATER_THAN_OR_EQUAL",
                              reference_value(client_, name, range.from)),
                 field_filter(kName, "LESS_THAN", reference_value(client_, name, range.until))})};
  }

  // Calls `each` with the id of every document in `range`, in id order.
  template <typename Each>
  void for_each_in(kit::RekeyKind kind, const keys::TenantKeyRange& range, Each each) const {
    query_pages(client_, in_range(kind, range), kRekeyPageDocuments,
                [&](std::vector<Document>& page) {
                  for (const Document& document : page) {
                    each(document.id);
                  }
                  return true;
                });
  }

  // Whether the collection holds a document whose id lies in `range`.
  bool any_in(kit::RekeyKind kind, const keys::TenantKeyRange& range) const {
    Query query = in_range(kind, range);
    query.limit = 1;
    return !run_query(client_, query).empty();
  }

  std::string url_;
  Client client_;
  std::string events_;
  std::string sagas_;
};

}  // namespace

std::string rekey_marker_collection(const Client& client) {
  return client.url().collection(kit::kRekeyMarkerBase);
}

std::optional<kit::RekeyMarker> read_rekey_marker(const Client& client) {
  const std::optional<Document> found =
      get_document(client, rekey_marker_collection(client), kit::kRekeyMarkerKey);
  if (!found) {
    return std::nullopt;
  }
  const FieldReader reader(found->fields,
                           "the tenant re-key's marker in " + marker_collection_words(client));
  return kit::RekeyMarker{.tenant = reader.string(kMarkerTenant),
                          .started_at = reader.timestamp(kMarkerStartedAt),
                          .started_by = reader.string(kMarkerStartedBy)};
}

RekeyMarkerProbe::RekeyMarkerProbe(const Client& client, std::string store,
                                   kit::RekeyMarkerCheck check)
    : once_(std::move(store), marker_collection_words(client), check) {}

void RekeyMarkerProbe::check(const Client& client) {
  once_.check([&] { return read_rekey_marker(client); });
}

TenantRekeyReport rekey_legacy_collections(std::string_view url,
                                           const TenantRekeyOptions& options) {
  const FirestoreRekeyTarget target(url);
  TenantRekeyReport report = kit::run_tenant_rekey(target, options);
  report.provider = "firestore";
  return report;
}

}  // namespace docket::firestore::detail
