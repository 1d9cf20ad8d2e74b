// The event store's front end: validates every argument before a provider sees it,
// so that bad input is refused identically everywhere and nothing is written.
#include "docket/event_store.h"

#include <stdexcept>
#include <string>
#include <utility>

#include "docket/error.h"
#include "docket/utf8.h"
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

// Refuses a page limit outside 1..kMaxReadAllLimit; `call` and `resume` name the call
// and what it continues from.
void require_page_limit(std::string_view call, std::size_t limit, std::string_view resume) {
  if (limit == 0 || limit > kMaxReadAllLimit) {
    throw InvalidInputError(std::string(call) + " limit " + std::to_string(limit) +
                            " is outside 1.." + std::to_string(kMaxReadAllLimit) +
                            ". Read in pages, continuing from each page's " + std::string(resume) +
                            ".");
  }
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

AppendResult EventStore::append(const StreamId& stream, ExpectedVersion expected,
                                std::span<const NewEvent> events) {
  return do_append(stream, expected, prepare(stream, expected, events));
}

AppendResult EventStore::append(HandlerTransaction& transaction, const StreamId& stream,
                                ExpectedVersion expected, std::span<const NewEvent> events) {
  return do_append_in(transaction, stream, expected, prepare(stream, expected, events));
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

ReadAllPage EventStore::read_all(std::int64_t from_position, std::size_t limit,
                                 const std::optional<TenantId>& tenant) {
  const FeedKind feed = capabilities().feed;
  if (feed == FeedKind::kOpaqueCursors) {
    refuse_capability(store_name(), "read every stream in one order (its feed has opaque cursors)",
                      "read the feed with read_feed and keep the cursors it returns");
  }
  if (feed != FeedKind::kGlobalPositions) {
    refuse_capability(store_name(), "read every stream in one order (no global sequence)",
                      "read streams by id, or build the feed from the outbox");
  }
  if (from_position < 0) {
    throw InvalidInputError("read_all from global position " + std::to_string(from_position) +
                            ": positions start at 1. Pass 0 or 1 to read from the start, or "
                            "the next_position of the previous page.");
  }
  require_page_limit("read_all", limit, "next_position");
  return do_read_all(from_position, limit, tenant ? &*tenant : nullptr);
}

FeedPage EventStore::read_feed(const FeedCursor& after, std::size_t limit,
                               const std::optional<TenantId>& tenant) {
  const FeedKind feed = capabilities().feed;
  if (feed == FeedKind::kNone) {
    refuse_capability(store_name(), "read a feed over every stream (it has no feed)",
                      "read streams by id, or build the feed from the outbox");
  }
  if (!accepts_cursor(after)) {
    throw InvalidInputError(
        "read_feed from cursor '" + after.text() + "': " + store_name() + "'s feed has " +
        std::string(describe(feed)) + ", and this is " +
        (after.position() ? "a global position"
                          : "a cursor of scheme '" + std::string(after.scheme()) + "'") +
        ". A cursor resumes only the feed that gave it: pass FeedCursor::start() or a cursor "
        "this store's read_feed returned.");
  }
  require_page_limit("read_feed", limit, "next cursor");
  const TenantId* only = tenant ? &*tenant : nullptr;
  if (feed == FeedKind::kGlobalPositions) {
    ReadAllPage page = do_read_all(*after.position(), limit, only);
    FeedPage out{.events = std::move(page.events),
                 .resume_at = {},
                 .next = FeedCursor::at_position(page.next_position)};
    out.resume_at.reserve(out.events.size());
    for (const RecordedEvent& event : out.events) {
      out.resume_at.push_back(FeedCursor::at_position(event.global_position));
    }
    return out;
  }
  FeedPage page = do_read_feed(after, limit, only);
  if (page.resume_at.size() != page.events.size() || page.events.size() > limit) {
    throw std::logic_error(store_name() + " returned a feed page of " +
                           std::to_string(page.events.size()) + " events (limit " +
                           std::to_string(limit) + ") with " +
                           std::to_string(page.resume_at.size()) + " cursors");
  }
  return page;
}

bool EventStore::accepts_cursor(const FeedCursor& cursor) const {
  switch (capabilities().feed) {
    case FeedKind::kGlobalPositions:
      return cursor.position().has_value();
    case FeedKind::kOpaqueCursors:
      return cursor.is_start() || do_accepts_cursor(cursor);
    case FeedKind::kNone:
      break;
  }
  return false;
}

ReadAllPage EventStore::do_read_all(std::int64_t, std::size_t, const TenantId*) {
  throw std::logic_error(store_name() +
                         " states a feed of global positions (or was asked "
                         "for one) but does not override do_read_all");
}

FeedPage EventStore::do_read_feed(const FeedCursor&, std::size_t, const TenantId*) {
  throw std::logic_error(store_name() +
                         " states a feed of opaque cursors but does not override do_read_feed");
}

bool EventStore::do_accepts_cursor(const FeedCursor&) const {
  return false;
}

std::string EventStore::store_name() const {
  return "the " + std::string(provider_name()) + " event store";
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
