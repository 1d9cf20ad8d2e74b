#include "providers/firestore/firestore_saga_document.h"

#include "docket/core/error.h"
#include "docket/keys/provider.h"
#include "providers/firestore/firestore_value.h"
#include "providers/kit/key_bridge.h"

namespace docket::firestore::detail::saga {
namespace {

constexpr std::string_view kVersion = "version";
constexpr std::string_view kState = "state";
constexpr std::string_view kStartedAt = "startedAt";

constexpr std::string_view kActive = "active";
constexpr std::string_view kCompleted = "completed";

}  // namespace

std::string saga_document_id(const SagaId& saga) {
  return kit::saga_key(keys::Provider::kFirestore, saga).value;
}

nlohmann::json saga_fields(const SagaId& saga, const SagaRecord& record) {
  nlohmann::json fields = {{kTenant, string_value(saga.tenant().value())},
                           {kSagaType, string_value(saga.saga_type())},
                           {kSagaId, string_value(saga.saga_id())},
                           {kVersion, integer_value(record.version)},
                           {kState, bytes_value(record.state)},
                           {kStatus, saga_status_value(record.status)},
                           {kStartedAt, timestamp_value(record.started_at)},
                           {kUpdatedAt, timestamp_value(record.updated_at)}};
  if (record.completed_at) {
    fields[std::string(kCompletedAt)] = timestamp_value(*record.completed_at);
  }
  return fields;
}

SagaRecord saga_record_of(const Document& document, std::string_view store) {
  const FieldReader reader(document.fields,
                           std::string(store) + ", document '" + document.id + "'");
  const std::string status = reader.string(kStatus);
  if (status != kActive && status != kCompleted) {
    throw InfrastructureError(std::string(store) + ", document '" + document.id +
                              "': field 'status' holds '" + status + "', neither '" +
                              std::string(kActive) + "' nor '" + std::string(kCompleted) +
                              "': the document was not written by docket");
  }
  return SagaRecord{.version = reader.integer(kVersion),
                    .state = reader.bytes(kState),
                    .status = status == kCompleted ? SagaStatus::kCompleted : SagaStatus::kActive,
                    .started_at = reader.timestamp(kStartedAt),
                    .updated_at = reader.timestamp(kUpdatedAt),
                    .completed_at = reader.optional_timestamp(kCompletedAt)};
}

nlohmann::json saga_status_value(SagaStatus status) {
  return string_value(status == SagaStatus::kCompleted ? kCompleted : kActive);
}

SagaSummary saga_summary_of(const Document& document, std::string_view store) {
  const SagaRecord record = saga_record_of(document, store);
  const FieldReader reader(document.fields,
                           std::string(store) + ", document '" + document.id + "'");
  return SagaSummary{.saga = SagaId(TenantId::from_stored(reader.string(kTenant)),
                                    reader.string(kSagaType), reader.string(kSagaId)),
                     .version = record.version,
                     .status = record.status,
                     .started_at = record.started_at,
                     .updated_at = record.updated_at,
                     .completed_at = record.completed_at};
}

}  // namespace docket::firestore::detail::saga
