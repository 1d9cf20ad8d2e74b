// docket events show: one stream's events, loaded through the event store (guard
// included), in version order.
#include <cstdint>
#include <iostream>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "count_option.h"
#include "docket/core/error.h"
#include "docket/eventsourcing/stream_id.h"
#include "docket/stores/open_store.h"
#include "docket/stores/printable_store_url.h"
#include "events_command.h"
#include "stored_bytes.h"
#include "usage_error.h"

namespace docket::tool {
namespace {

struct EventsShowArgs {
  std::string store;
  std::string tenant;
  std::string aggregate_type;
  std::string aggregate_id;
  std::uint64_t from_version = 0;
  bool json = false;
};

// One event as a JSON object, its payload embedded as stored (stored_bytes.h).
std::string event_json(const RecordedEvent& event, bool positions) {
  JsonObjectText out;
  out.add("version", event.version)
      .add("event_id", event.event_id.to_string())
      .add("type", event.type)
      .add("occurred_at", format_timestamp(event.occurred_at));
  if (positions) {
    out.add("global_position", event.global_position);
  }
  put_bytes(out, "payload", event.payload);
  const EventMetadata& metadata = event.metadata;
  if (!metadata.correlation_id.empty()) {
    out.add("correlation_id", metadata.correlation_id);
  }
  if (!metadata.causation_id.empty()) {
    out.add("causation_id", metadata.causation_id);
  }
  if (metadata.trace_context) {
    out.add("traceparent", metadata.trace_context->parent.to_string());
    if (!metadata.trace_context->state.empty()) {
      out.add("tracestate", metadata.trace_context->state);
    }
  }
  return out.text();
}

void print_stream(const StreamId& stream, const std::vector<RecordedEvent>& events,
                  const std::string& store) {
  std::cout << "stream  " << stream.describe() << '\n' << "store   " << store << '\n';
  if (events.empty()) {
    std::cout << "events  (none)\n";
    return;
  }
  std::cout << "events  " << events.size() << " (versions " << events.front().version << ".."
            << events.back().version << ")\n";
  for (const RecordedEvent& event : events) {
    std::cout << "  v" << event.version << "  " << format_timestamp(event.occurred_at) << "  "
              << event.type << "  " << event.event_id.to_string() << '\n'
              << "      " << printable_bytes(event.payload) << '\n';
  }
}

void run_events_show(const EventsShowArgs& args) {
  if (args.from_version > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
    throw UsageError("--from-version " + std::to_string(args.from_version) +
                     " is past the largest version, " +
                     std::to_string(std::numeric_limits<std::int64_t>::max()));
  }
  // The terms are checked before the store is opened: a refused one sends nothing.
  const StreamId stream(TenantId(args.tenant), args.aggregate_type, args.aggregate_id);
  const auto store = open_event_store(args.store);
  const std::vector<RecordedEvent> events =
      store->load(stream, static_cast<std::int64_t>(args.from_version));
  const std::string printable = printable_store_url(args.store);
  if (!args.json) {
    print_stream(stream, events, printable);
    return;
  }
  const bool positions = store->capabilities().feed == FeedKind::kGlobalPositions;
  std::vector<std::string> shown;
  shown.reserve(events.size());
  for (const RecordedEvent& event : events) {
    shown.push_back(event_json(event, positions));
  }
  std::cout << JsonObjectText()
                   .add("store", printable)
                   .add("tenant", stream.tenant().value())
                   .add("aggregate_type", stream.aggregate_type())
                   .add("aggregate_id", stream.aggregate_id())
                   .add("version", events.empty() ? nlohmann::json(nullptr)
                                                  : nlohmann::json(events.back().version))
                   .add_verbatim("events", json_array_text(shown))
                   .text()
            << '\n';
}

}  // namespace

void add_events_command(CLI::App& app) {
  CLI::App* events = app.add_subcommand(
      "events", "Inspect an event store: the events of one stream, as the application loads them");
  events->require_subcommand(1);
  auto args = std::make_shared<EventsShowArgs>();
  CLI::App* show = events->add_subcommand(
      "show",
      "One stream's events in version order, loaded through the event store (its legacy-key "
      "guard included: exit 1 with its message while untenanted documents remain)");
  show->add_option("--store", args->store, "Store URL, e.g. sqlite:///var/lib/app/app.db")
      ->required();
  show->add_option("--tenant", args->tenant, "The stream's tenant")->required();
  show->add_option("--aggregate-type", args->aggregate_type, "The stream's aggregate type")
      ->required();
  show->add_option("--aggregate-id", args->aggregate_id, "The stream's aggregate id")->required();
  show->add_option("--from-version", args->from_version,
                   "The first version to show (default 0, the stream's first event)")
      ->check(whole_count());
  show->add_flag("--json", args->json, "Print one JSON object");
  show->callback([args] { run_events_show(*args); });
}

}  // namespace docket::tool
