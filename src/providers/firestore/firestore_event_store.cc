#include "providers/firestore/firestore_event_store.h"

#include <array>
#include <optional>
#include <utility>

#include "docket/core/error.h"
#include "providers/firestore/firestore_event_document.h"
#include "providers/firestore/firestore_limits.h"
#include "providers/firestore/firestore_query.h"
#include "providers/firestore/firestore_unit.h"
#include "providers/firestore/firestore_value.h"
#include "providers/kit/unit_streams.h"

namespace docket::firestore::detail {
namespace {

// An any-version append that a concurrent appender overtook between its read and its
// commit reads again and retries, at most this often.
constexpr int kMaxAnyVersionAttempts = 25;

// Events per page of a load: a page is one runQuery answer, up to 1 MiB per event.
constexpr std::size_t kLoadPageEvents = 300;

}  // namespace

FirestoreEventStore::FirestoreEventStore(std::string_view url, const Clock& clock,
                                         kit::RekeyMarkerCheck marker)
    : EventStore(clock),
      client_(parse_store_url(url)),
      collection_(client_.url().collection(event::kCollection)),
      guard_(collection_, LegacyKeyKind::kStream),
      store_("Firestore event store (collection '" + collection_ + "' at " + client_.url().text +
             ")"),
      rekey_marker_(client_, store_, marker) {}

StoreCapabilities FirestoreEventStore::capabilities() const noexcept {
  // No order over every stream (FeedKind::kNone); appends join the provider's units of
  // work; one append is one commit, bounded by its writes; each event one document.
  return {.joins_handler_writes = true,
          .interactive_transactions = false,
          .max_writes_per_commit = kMaxWritesPerCommit,
          .max_bytes_per_commit = 0,
          .max_bytes_per_record = kMaxDocumentBytes,
          .feed = FeedKind::kNone,
          .server_side_expiry = false,
          .shared_between_processes = true};
}

AppendResult FirestoreEventStore::do_append(const StreamId& stream, ExpectedVersion expected,
                                            std::vector<RecordedEvent> events) {
  rekey_marker_.check(client_);
  if (events.size() > kMaxWritesPerCommit) {
    throw InvalidInputError(store_ + ": an append of " + std::to_string(events.size()) +
                            " events to " + stream.describe() +
                            " needs one write per event in one commit, and Firestore takes at "
                            "most " +
                            std::to_string(kMaxWritesPerCommit) +
                            " writes per commit. Nothing was written. Append at most " +
                            std::to_string(kMaxWritesPerCommit) + " events per call.");
  }
  // Sizes are checked once, before anything is read or written.
  creates(expected.is_any() ? 0 : expected.value(), events);
  if (expected.is_no_stream()) {
    guard_.check(client_);  // a create that assumes nothing is there
  }
  const std::string stream_key = event::event_id(stream, 0);  // the stream's, told apart by it
  for (int attempt = 1;; ++attempt) {
    const std::int64_t base = expected.is_any() ? current_version(stream) : expected.value();
    if (expected.is_any() && base == kNoStreamVersion) {
      guard_.check(client_);  // a version read that found nothing
    }
    if (!expected.is_any() && base != kNoStreamVersion && !known_.exists(stream_key, base) &&
        !has_event(stream, base)) {
      break;  // the stream is not at the version expected: nothing to write after
    }
    const std::vector<Write> writes = creates(base, events);
    if (commit(client_, writes, store_).applied) {
      known_.saw(stream_key, events.back().version);
      AppendSuccess success{.new_version = events.back().version, .events = {}};
      success.events.reserve(events.size());
      for (const RecordedEvent& event : events) {
        success.events.push_back({event.version, 0, event.event_id, event.occurred_at});
      }
      return success;
    }
    if (!expected.is_any()) {
      break;  // another appender wrote at one of these versions
    }
    if (attempt == kMaxAnyVersionAttempts) {
      throw InfrastructureError(store_ + ": an any-version append to " + stream.describe() +
                                " was overtaken by " + std::to_string(kMaxAnyVersionAttempts) +
                                " concurrent appends in a row and was not applied; retry later");
    }
  }
  return VersionConflict{.subject = "append to " + stream.describe(),
                         .expected_version = expected.value(),
                         .actual_version = current_version(stream)};
}

AppendResult FirestoreEventStore::do_append_in(HandlerTransaction& transaction,
                                               const StreamId& stream, ExpectedVersion expected,
                                               std::vector<RecordedEvent> events) {
  rekey_marker_.check(client_);
  detail::Unit& unit = detail::joined_unit(transaction, client_, [&](const std::string& reason) {
    return cannot_join_error(transaction, reason);
  });
  const std::string key = event::event_id(stream, 0);  // the stream's, told apart by it
  const auto read = [&] {
    const std::int64_t version = current_version(stream);
    if (version == kNoStreamVersion) {
      guard_.check(client_);  // a version read that found nothing
    }
    return version;
  };
  if (auto conflict =
          unit.streams().number(unit.staged_writes(), key, read, stream, expected, events)) {
    return std::move(*conflict);
  }
  // Sizes checked; numbered as above.
  std::vector<Write> writes = creates(events.front().version - 1, events);
  for (std::size_t i = 0; i < writes.size(); ++i) {
    unit.stage_event(
        writes[i].collection, writes[i].id, std::move(*writes[i].fields),
        {.stream_key = key, .stream = stream.describe(), .version = events[i].version});
  }
  return kit::appended(events);
}

std::vector<Write> FirestoreEventStore::creates(std::int64_t base,
                                                std::vector<RecordedEvent>& events) const {
  std::vector<Write> writes;
  writes.reserve(events.size());
  for (std::size_t i = 0; i < events.size(); ++i) {
    events[i].version = base + 1 + static_cast<std::int64_t>(i);
    Write write{.collection = collection_,
                .id = event::event_id(events[i].stream, events[i].version),
                .fields = event::event_fields(events[i]),
                .precondition = {.exists = false}};
    const std::size_t size = document_size(collection_, write.id, *write.fields);
    if (size > kMaxDocumentBytes) {
      throw InvalidInputError(
          store_ + ": the event at version " + std::to_string(events[i].version) + " of " +
          events[i].stream.describe() + " would be a document of " + std::to_string(size) +
          " bytes as Firestore counts them, over its limit of " +
          std::to_string(kMaxDocumentBytes) +
          " bytes per document. Nothing was written. Make the event's "
          "payload smaller.");
    }
    writes.push_back(std::move(write));
  }
  return writes;
}

bool FirestoreEventStore::has_event(const StreamId& stream, std::int64_t version) const {
  return get_document(client_, collection_, event::event_id(stream, version)).has_value();
}

std::int64_t FirestoreEventStore::current_version(const StreamId& stream) const {
  const std::vector<Document> last =
      run_query(client_, {.collection = collection_,
                          .where = all_of(event::stream_filters(stream)),
                          .order_by = {{std::string(event::kVersion), true}},
                          .limit = 1});
  if (last.empty()) {
    return kNoStreamVersion;
  }
  return FieldReader(last.front().fields, store_ + ", document '" + last.front().id + "'")
      .integer(event::kVersion);
}

std::vector<RecordedEvent> FirestoreEventStore::do_load(const StreamId& stream,
                                                        std::int64_t from_version) {
  rekey_marker_.check(client_);
  std::vector<nlohmann::json> filters = event::stream_filters(stream);
  filters.push_back(
      field_filter(event::kVersion, "GREATER_THAN_OR_EQUAL", integer_value(from_version)));
  std::vector<RecordedEvent> events;
  query_pages(client_,
              {.collection = collection_,
               .where = all_of(std::move(filters)),
               .order_by = {{std::string(event::kVersion), false}}},
              kLoadPageEvents, [&](std::vector<Document>& page) {
                for (const Document& document : page) {
                  events.push_back(event::event_of(document, stream, store_));
                }
                return true;
              });
  if (events.empty()) {
    guard_.check(client_);  // a load that came back empty
  } else {
    known_.saw(event::event_id(stream, 0), events.back().version);
  }
  return events;
}

std::unique_ptr<EventStore> open_event_store(std::string_view url, const Clock& clock) {
  return std::make_unique<FirestoreEventStore>(url, clock);
}

}  // namespace docket::firestore::detail
