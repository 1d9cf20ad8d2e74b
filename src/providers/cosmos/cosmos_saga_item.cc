#include "providers/cosmos/cosmos_saga_item.h"

#include <optional>

#include "docket/core/error.h"
#include "docket/keys/provider.h"
#include "docket/keys/term_codec.h"
#include "providers/cosmos/cosmos_event_item.h"
#include "providers/kit/base64.h"
#include "providers/kit/key_bridge.h"
#include "providers/kit/saga_listing.h"
#include "providers/kit/time_codec.h"

namespace docket::cosmos::detail::saga {
namespace {

SagaStatus status_of(const ItemFields& fields, std::string_view store) {
  const std::string status = fields.text("status");
  if (status == "active") {
    return SagaStatus::kActive;
  }
  if (status == "completed") {
    return SagaStatus::kCompleted;
  }
  throw InfrastructureError(std::string(store) + ": a saga item has status '" +
                            status.substr(0, 100) +
                            "', neither 'active' nor 'completed'; it was not written by docket");
}

}  // namespace

SagaAddress saga_address(const SagaId& saga) {
  return {.id = kit::saga_key(keys::Provider::kCosmosDb, saga).value,
          .partition = kit::saga_type_key(keys::Provider::kCosmosDb, saga).value};
}

std::string_view status_text(SagaStatus status) {
  return status == SagaStatus::kCompleted ? "completed" : "active";
}

std::string list_key(const SagaId& saga) {
  return kit::saga_key(keys::Provider::kCosmosDb, saga).value + ":" +
         keys::escape_reserved(saga.saga_type());
}

nlohmann::json saga_item(const SagaId& saga, const SagaAddress& address, const SagaRecord& record) {
  nlohmann::json item = {{"id", address.id},
                         {"sagaType", address.partition},
                         {"tenant", saga.tenant().value()},
                         {"sagaId", saga.saga_id()},
                         {"listKey", list_key(saga)},
                         {"version", record.version},
                         {"state", kit::base64_encode(record.state)},
                         {"status", status_text(record.status)},
                         {"startedAt", kit::to_micros(record.started_at)},
                         {"updatedAt", kit::to_micros(record.updated_at)}};
  if (record.completed_at) {
    item["completedAt"] = kit::to_micros(*record.completed_at);
  }
  return item;
}

SagaRecord saga_record_of(const nlohmann::json& item, std::string_view store) {
  const ItemFields fields(item, store);
  SagaRecord record{.version = fields.integer("version"),
                    .state = fields.bytes("state"),
                    .status = status_of(fields, store),
                    .started_at = fields.time("startedAt"),
                    .updated_at = fields.time("updatedAt"),
                    .completed_at = std::nullopt};
  if (const std::optional<std::int64_t> completed = fields.optional_integer("completedAt")) {
    record.completed_at = kit::from_micros(*completed);
  }
  return record;
}

SagaSummary saga_summary_of(const nlohmann::json& item, std::string_view store) {
  const ItemFields fields(item, store);
  return kit::saga_list_row(fields.text("tenant"), fields.text("sagaType"), fields.text("sagaId"),
                            fields.integer("version"), fields.integer("startedAt"),
                            fields.integer("updatedAt"), fields.optional_integer("completedAt"));
}

}  // namespace docket::cosmos::detail::saga
