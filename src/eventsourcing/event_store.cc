// The event store's front end: validates every argument before a provider sees it,
// so that bad input is refused identically everywhere and nothing is written.
#include "docket/eventsourcing/event_store.h"

#include <string>
#include <utility>

#include "core/observing.h"
#include "docket/core/error.h"
#include "docket/core/utf8.h"
#include "eventsourcing/name_rules.h"

namespace docket {
namespace {

// Whether `value` passes require_name (require_optional_name when `optional`), checked
// without composing the label those name the event by: an append checks every event,
// and the label is needed only for a refusal.
bool acceptable(std::string_view value, std::size_t max_bytes, bool optional) {
  return (optional || !value.empty()) && value.size() <= max_bytes && is_valid_utf8(value);
}

void validate_event(const StreamId& stream, std::size_t index, const NewEvent& event) {
  if (acceptable(event.type, kMaxEventTypeBytes, false) &&
      acceptable(event.metadata.correlation_id, kMaxLineageIdBytes, true) &&
      acceptable(event.metadata.causation_id, kMaxLineageIdBytes, true)) {
    return;
  }
  const std::string where =
      "event " + std::to_string(index) + " of the append to " + stream.describe() + ": ";
  eventsourcing::require_name(where + "event type", event.type, kMaxEventTypeBytes,
                              "Name the event's type, e.g. \"deposited\"; nothing was written.");
  eventsourcing::require_optional_name(where + "correlation id", event.metadata.correlation_id,
                                       kMaxLineageIdBytes, "Nothing was written.");
  eventsourcing::require_optional_name(where + "causation id", event.metadata.causation_id,
                                       kMaxLineageIdBytes, "Nothing was written.");
}

}  // namespace

std::vector<RecordedEvent> EventStore::prepare(const StreamId& stream, ExpectedVersion expected,
                                               std::span<const NewEvent> events) const {
  if (events.empty()) {
    throw InvalidInputError("append to " + stream.describe() + " (expected " + expected.describe() +
                            ") has no events. Pass at least one event; to check a stream's "
                            "version without writing, load it.");
  }
  for (std::size_t i = 0; i < events.size(); ++i) {
    validate_event(stream, i, events[i]);
  }
  const Timestamp now = clock_.now();
  std::vector<RecordedEvent> prepared;
  prepared.reserve(events.size());
  for (const NewEvent& event : events) {
    prepared.push_back(RecordedEvent{.stream = stream,
                                     .version = 0,
                                     .global_position = 0,
                                     .event_id = Uuid::v7(),
                                     .type = event.type,
                                     .payload = event.payload,
                                     .metadata = event.metadata,
                                     .occurred_at = event.occurred_at.value_or(now)});
  }
  return prepared;
}

template <class Write>
AppendResult EventStore::observed_append(const StreamId& stream, std::size_t events,
                                         bool in_transaction, Write&& write) {
  if (!observer_) {
    return std::forward<Write>(write)();
  }
  const auto started = std::chrono::steady_clock::now();
  AppendResult result = std::forward<Write>(write)();
  const auto duration = std::chrono::steady_clock::now() - started;
  detail::notify(observer_.get(), [&](Observer& observer) {
    observer.on_append(AppendObservation{.provider = provider_name(),
                                         .aggregate_type = stream.aggregate_type(),
                                         .tenant = stream.tenant().value(),
                                         .events = events,
                                         .conflict = result.is_conflict(),
                                         .in_transaction = in_transaction,
                                         .duration = duration});
  });
  return result;
}

AppendResult EventStore::append(const StreamId& stream, ExpectedVersion expected,
                                std::span<const NewEvent> events) {
  std::vector<RecordedEvent> prepared = prepare(stream, expected, events);
  return observed_append(stream, events.size(), false,
                         [&] { return do_append(stream, expected, std::move(prepared)); });
}

AppendResult EventStore::append(HandlerTransaction& transaction, const StreamId& stream,
                                ExpectedVersion expected, std::span<const NewEvent> events) {
  std::vector<RecordedEvent> prepared = prepare(stream, expected, events);
  return observed_append(stream, events.size(), true, [&] {
    return do_append_in(transaction, stream, expected, std::move(prepared));
  });
}

AppendResult EventStore::do_append_in(HandlerTransaction& transaction, const StreamId&,
                                      ExpectedVersion, std::vector<RecordedEvent>) {
  throw cannot_join_error(transaction, "this provider does not join a caller's transaction");
}

std::vector<RecordedEvent> EventStore::load(const StreamId& stream, std::int64_t from_version) {
  if (from_version < 0) {
    throw InvalidInputError("load of " + stream.describe() + " from version " +
                            std::to_string(from_version) +
                            ": versions start at 0. Pass 0 to load the whole stream.");
  }
  return do_load(stream, from_version);
}

ConfigurationError EventStore::cannot_join_error(const HandlerTransaction& transaction,
                                                 std::string_view reason) const {
  return ConfigurationError(
      "the " + std::string(provider_name()) + " event store cannot append inside a " +
      std::string(transaction.type_name()) + ": " + std::string(reason) +
      ". Pass the transaction of an inbox store of the event store's own provider and "
      "database (for SQLite: open both with the same StoreOptions::path), "
      "or call append without a transaction, which commits on its own.");
}

}  // namespace docket
