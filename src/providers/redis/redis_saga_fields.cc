// One Redis saga's fields (redis_saga_fields.h).
#include "providers/redis/redis_saga_fields.h"

#include <optional>
#include <utility>

#include "docket/core/error.h"
#include "providers/kit/saga_listing.h"
#include "providers/kit/time_codec.h"
#include "providers/redis/redis_hash_fields.h"

namespace docket::redis::detail {

std::vector<std::string> saga_fields(const SagaId& saga, const SagaRecord& record) {
  const auto micros = [](Timestamp t) { return std::to_string(kit::to_micros(t)); };
  std::vector<std::string> fields{"tenant",     saga.tenant().value(),
                                  "saga_type",  saga.saga_type(),
                                  "saga_id",    saga.saga_id(),
                                  "version",    std::to_string(record.version),
                                  "state",      record.state,
                                  "started_at", micros(record.started_at),
                                  "updated_at", micros(record.updated_at)};
  if (record.completed_at) {
    fields.emplace_back("completed_at");
    fields.push_back(micros(*record.completed_at));
  }
  return fields;
}

SagaRecord saga_record_of(std::span<const std::string> pairs, std::string_view store) {
  const HashFields fields(pairs, store, "the saga", "saga_id");
  SagaRecord record{.version = fields.integer("version"),
                    .state = fields.text("state"),
                    .status = SagaStatus::kActive,
                    .started_at = fields.time("started_at"),
                    .updated_at = fields.time("updated_at"),
                    .completed_at = fields.optional_time("completed_at")};
  if (record.completed_at) {
    record.status = SagaStatus::kCompleted;
  }
  return record;
}

SagaSummary saga_summary_of(std::span<const std::string> pairs, std::string_view store) {
  const HashFields fields(pairs, store, "the saga", "saga_id");
  try {
    return kit::saga_list_row(fields.text("tenant"), fields.text("saga_type"),
                              fields.text("saga_id"), fields.integer("version"),
                              fields.integer("started_at"), fields.integer("updated_at"),
                              fields.optional_integer("completed_at"));
  } catch (const InvalidInputError& e) {
    fields.refuse("saga_id",
                  std::string("with tenant and saga_type names no saga (") + e.what() + ")");
  }
}

}  // namespace docket::redis::detail
