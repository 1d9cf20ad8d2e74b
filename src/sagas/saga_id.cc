#include "docket/sagas/saga_id.h"

#include <utility>

#include "eventsourcing/name_rules.h"

namespace docket {

SagaId::SagaId(TenantId tenant, std::string_view saga_type, std::string_view saga_id)
    : tenant_(std::move(tenant)), saga_type_(saga_type), saga_id_(saga_id) {
  eventsourcing::require_name("saga type", saga_type, kMaxSagaTypeBytes,
                              "Pass the saga's type name, e.g. \"checkout\".");
  eventsourcing::require_name(
      "saga id", saga_id, kMaxSagaIdBytes,
      "Pass the id the saga's messages correlate on, e.g. an order number.");
}

std::string SagaId::describe() const {
  return "saga (tenant '" + tenant_.value() + "', saga type '" + saga_type_ + "', saga id '" +
         saga_id_ + "')";
}

}  // namespace docket
