#include "docket_event_side.h"

#include <algorithm>
#include <span>
#include <string>
#include <utility>

namespace docket::bench {

DocketEventSession::DocketEventSession(EventStore& store)
    : store_(store), tenant_(kBenchStreamTenant) {}

void DocketEventSession::append(const AppendCall& call, StreamVersions& versions,
                                AppendCounts& counts) {
  if (events_.size() < call.events) {
    events_.resize(call.events, NewEvent{.type = std::string(kBenchEventName),
                                         .payload = std::string(kBenchEventBody)});
  }
  const StreamId stream(tenant_, call.aggregate_type, call.aggregate_id);
  const std::int64_t known = versions.get(call.stream);
  const ExpectedVersion expected =
      known < 0 ? ExpectedVersion::no_stream() : ExpectedVersion::exactly(known);
  const AppendResult result =
      store_.append(stream, expected, std::span<const NewEvent>(events_.data(), call.events));
  if (result.succeeded()) {
    versions.set(call.stream, result.success().new_version);
    ++counts.ok;
    counts.events += call.events;
  } else {
    versions.set(call.stream, result.conflict().actual_version);
    ++counts.conflicts;
  }
}

std::size_t DocketEventSession::load(std::string_view aggregate_type,
                                     std::string_view aggregate_id) {
  return store_.load(StreamId(tenant_, aggregate_type, aggregate_id)).size();
}

}  // namespace docket::bench
