#include "providers/firestore/firestore_tenant_rekey.h"

#include <string>
#include <vector>

#include "docket/keys/tenant_prefix.h"
#include "providers/firestore/firestore_client.h"
#include "providers/firestore/firestore_documents.h"
#include "providers/firestore/firestore_event_document.h"
#include "providers/firestore/firestore_legacy_guard.h"
#include "providers/firestore/firestore_limits.h"
#include "providers/firestore/firestore_query.h"
#include "providers/firestore/firestore_saga_document.h"
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

class FirestoreRekeyTarget final : public kit::TenantRekeyTarget {
 public:
  explicit FirestoreRekeyTarget(std::string_view url)
      : client_(parse_store_url(url)),
        events_(client_.url().collection(event::kCollection)),
        sagas_(client_.url().collection(saga::kCollection)) {}

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

  // Whether the collection holds a document whose id lies in `range`.
  bool any_in(kit::RekeyKind kind, const keys::TenantKeyRange& range) const {
    const std::string& name = collection(kind);
    return !run_query(client_,
                      {.collection = name,
                       .where = all_of({field_filter(kName, "GREATER_THAN_OR_EQUAL",
                                                     reference_value(client_, name, range.from)),
                                        field_filter(kName, "LESS_THAN",
                                                     reference_value(client_, name, range.until))}),
                       .limit = 1})
                .empty();
  }

  Client client_;
  std::string events_;
  std::string sagas_;
};

}  // namespace

TenantRekeyReport rekey_legacy_collections(std::string_view url,
                                           const TenantRekeyOptions& options) {
  const FirestoreRekeyTarget target(url);
  TenantRekeyReport report = kit::run_tenant_rekey(target, options);
  report.provider = "firestore";
  return report;
}

}  // namespace docket::firestore::detail
