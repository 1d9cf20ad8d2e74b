#include "docket/eventsourcing/stream_id.h"

#include <utility>

#include "eventsourcing/name_rules.h"

namespace docket {

StreamId::StreamId(TenantId tenant, std::string_view aggregate_type, std::string_view aggregate_id)
    : terms_(std::make_shared<const Terms>(Terms{.tenant = std::move(tenant),
                                                 .aggregate_type = std::string(aggregate_type),
                                                 .aggregate_id = std::string(aggregate_id)})) {
  eventsourcing::require_name("aggregate type", aggregate_type, kMaxAggregateTypeBytes,
                              "Pass the aggregate's type name, e.g. \"account\".");
  eventsourcing::require_name(
      "aggregate id", aggregate_id, kMaxAggregateIdBytes,
      "Pass the aggregate's id from your domain, e.g. an order number or a UUID.");
}

std::string StreamId::describe() const {
  return "stream (tenant '" + tenant().value() + "', aggregate type '" + aggregate_type() +
         "', aggregate id '" + aggregate_id() + "')";
}

}  // namespace docket
