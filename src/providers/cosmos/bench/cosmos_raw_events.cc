#include "cosmos_raw_events.h"

#include "docket/core/error.h"
#include "docket/core/uuid.h"
#include "docket/eventsourcing/stream_id.h"
#include "providers/cosmos/cosmos_event_item.h"
#include "providers/kit/time_codec.h"
#include "wall_clock.h"

namespace docket::bench {

namespace cosmos_event = cosmos::detail::event;

RawEventsCosmos::RawEventsCosmos(const std::string& url)
    : rest_(url), container_(rest_.client().url().container(cosmos_event::kContainer)) {}

void RawEventsCosmos::append(const AppendCall& call, StreamVersions& versions,
                             AppendCounts& counts) {
  const std::int64_t expected = versions.get(call.stream);
  const StreamId stream(TenantId(kBenchStreamTenant), call.aggregate_type, call.aggregate_id);
  const std::string key = cosmos_event::stream_key(stream);
  const Timestamp at = kit::from_micros(now_micros());
  const auto item = [&](std::size_t e) {
    return cosmos_event::event_item(
        key, RecordedEvent{.stream = stream,
                           .version = expected + 1 + static_cast<std::int64_t>(e),
                           .global_position = 0,
                           .event_id = Uuid::parse(call.ids->id(call.first_id + e)).value(),
                           .type = std::string(kBenchEventName),
                           .payload = std::string(kBenchEventBody),
                           .metadata = {},
                           .occurred_at = at});
  };
  bool applied = false;
  if (expected == -1 && call.events == 1) {
    applied = rest_.create(container_, key, item(0)).has_value();
  } else {
    const std::string partition = cosmos::detail::partition_key_header(key);
    nlohmann::json operations = nlohmann::json::array();
    if (expected >= 0) {
      operations.push_back({{"operationType", "Read"},
                            {"id", cosmos_event::version_id(expected)},
                            {"partitionKey", partition}});
    }
    for (std::size_t e = 0; e < call.events; ++e) {
      nlohmann::json body = item(e);
      operations.push_back({{"operationType", "Create"},
                            {"id", body["id"]},
                            {"partitionKey", partition},
                            {"resourceBody", std::move(body)}});
    }
    const std::optional<RawBatchFailure> failure = rest_.batch(container_, key, operations);
    if (failure && failure->status != 404 && failure->status != 409) {
      throw InfrastructureError(
          "raw Cosmos DB events baseline: an append batch failed at "
          "operation " +
          std::to_string(failure->index) + " (HTTP " + std::to_string(failure->status) + ")");
    }
    applied = !failure;
  }
  if (!applied) {  // a stale expectation, or a concurrent appender took the version
    versions.set(call.stream, stream_version(key));
    ++counts.conflicts;
    return;
  }
  versions.set(call.stream, expected + static_cast<std::int64_t>(call.events));
  ++counts.ok;
  counts.events += call.events;
}

std::int64_t RawEventsCosmos::stream_version(const std::string& key) {
  const nlohmann::json top = rest_.query(
      container_, key,
      "SELECT TOP 1 VALUE c.version FROM c WHERE c.streamId = @stream ORDER BY c.version DESC",
      {{{"name", "@stream"}, {"value", key}}});
  return top.empty() ? -1 : top.front().get<std::int64_t>();
}

std::size_t RawEventsCosmos::load(std::string_view aggregate_type, std::string_view aggregate_id) {
  const std::string key = cosmos_event::stream_key(
      StreamId(TenantId(kBenchStreamTenant), aggregate_type, aggregate_id));
  const nlohmann::json items =
      rest_.query(container_, key, "SELECT * FROM c WHERE c.streamId = @stream",
                  {{{"name", "@stream"}, {"value", key}}});
  for (const nlohmann::json& found : items) {
    sink_ += found.size();
  }
  return items.size();
}

}  // namespace docket::bench
