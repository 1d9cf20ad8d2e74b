#include "docket/stream_id.h"

#include <utility>

#include "eventsourcing/name_rules.h"

namespace docket {

StreamId::StreamId(TenantId tenant, std::string_view aggregate_type, std::string_view aggregate_id)
    : tenant_(std::move(tenant)), aggregate_type_(aggregate_type), aggregate_id_(aggregate_id) {
  eventsourcing::require_name("aggregate type", aggregate_type, kMaxAggregateTypeBytes,
                              "Pass the aggregate's type name, e.g. \"account\".");
  eventsourcing::require_name(
      "aggregate id", aggregate_id, kMaxAggregateIdBytes,
      "Pass the aggregate's id from your domain, e.g. an order number or a UUID.");
}

std::string StreamId::describe() const {
  return "stream (tenant '" + tenant_.value() + "', aggregate type '" + aggregate_type_ +
         "', aggregate id '" + aggregate_id_ + "')";
}

}  // namespace docket
