#include "providers/cosmos/cosmos_event_store.h"

#include <limits>
#include <utility>

#include "docket/core/error.h"
#include "providers/cosmos/cosmos_batch.h"
#include "providers/cosmos/cosmos_event_item.h"
#include "providers/cosmos/cosmos_items.h"
#include "providers/cosmos/cosmos_limits.h"
#include "providers/cosmos/cosmos_unit.h"
#include "providers/kit/unit_streams.h"

namespace docket::cosmos::detail {
namespace {

// An any-version append that a concurrent appender overtook between its read and its
// batch reads again and retries, at most this often.
constexpr int kMaxAnyVersionAttempts = 25;

}  // namespace

CosmosEventStore::CosmosEventStore(std::string_view url, const Clock& clock,
                                   kit::RekeyMarkerCheck marker)
    : EventStore(clock),
      client_(parse_store_url(url)),
      container_(client_.url().container(event::kContainer)),
      guard_(container_, LegacyKeyKind::kStream),
      store_("Cosmos DB event store (container '" + container_ + "' at " + client_.url().printable +
             ")"),
      rekey_marker_(client_, store_, marker) {}

StoreCapabilities CosmosEventStore::capabilities() const noexcept {
  // No order over every stream (FeedKind::kNone); one append is one transactional batch,
  // bounded by its operations and bytes; each event one item. Appends commit on their
  // own: a stream's partition is never the handler's unit's.
  return {.joins_handler_writes = false,
          .interactive_transactions = false,
          .max_writes_per_commit = kMaxAppendEvents,
          .max_bytes_per_commit = kMaxBatchBytes,
          .max_bytes_per_record = kMaxItemBytes,
          .feed = FeedKind::kNone,
          .server_side_expiry = false,
          .shared_between_processes = true,
          .concurrent_writers = true,
          .lease_clock = LeaseClock::kClaimer};
}

std::vector<nlohmann::json> CosmosEventStore::items(const std::string& key, std::int64_t base,
                                                    std::vector<RecordedEvent>& events) const {
  std::vector<nlohmann::json> made;
  made.reserve(events.size());
  std::size_t total = 0;
  for (std::size_t i = 0; i < events.size(); ++i) {
    events[i].version = base + 1 + static_cast<std::int64_t>(i);
    nlohmann::json item = event::event_item(key, events[i]);
    const std::size_t bytes = item.dump().size();
    if (bytes > kMaxItemBytes) {
      throw InvalidInputError(
          store_ + ": the event at version " + std::to_string(events[i].version) + " of " +
          events[i].stream.describe() + " would be an item of " + std::to_string(bytes) +
          " bytes (its payload in base64), over the " + std::to_string(kMaxItemBytes) +
          " bytes docket allows an item under Cosmos DB's 2 MB limit. Nothing "
          "was written. Make the event's payload smaller.");
    }
    total += bytes;
    made.push_back(std::move(item));
  }
  if (total > kMaxBatchBytes) {
    throw InvalidInputError(store_ + ": an append of " + std::to_string(events.size()) +
                            " events to " + events.front().stream.describe() +
                            " would be a batch of " + std::to_string(total) + " bytes, over the " +
                            std::to_string(kMaxBatchBytes) +
                            " bytes of one Cosmos DB transactional batch. Nothing was written. "
                            "Append fewer or smaller events per call.");
  }
  return made;
}

bool CosmosEventStore::send_append(const std::string& key, std::int64_t base,
                                   const std::vector<nlohmann::json>& items) const {
  const std::string partition = partition_key_header(key);
  nlohmann::json operations = nlohmann::json::array();
  const bool proves_base = base != kNoStreamVersion;
  if (proves_base) {
    operations.push_back(
        {{"operationType", "Read"}, {"id", event::version_id(base)}, {"partitionKey", partition}});
  }
  for (const nlohmann::json& item : items) {
    operations.push_back({{"operationType", "Create"},
                          {"id", item["id"]},
                          {"partitionKey", partition},
                          {"resourceBody", item}});
  }
  const std::string what = "append batch of " + std::to_string(items.size()) +
                           " events to stream '" + key.substr(0, 200) + "' in container '" +
                           container_ + "'";
  const std::optional<BatchFailure> failure = send_batch(client_, {.container = container_,
                                                                   .partition = key,
                                                                   .operations = operations,
                                                                   .what = what,
                                                                   .store = store_});
  if (!failure) {
    return true;
  }
  if ((failure->status == 404 && proves_base && failure->index == 0) || failure->status == 409) {
    return false;  // the stream is not at `base`, or is past it already
  }
  const std::string message = failure->message.empty() ? "" : ": " + failure->message;
  if (failure->status == 400 || failure->status == 413) {
    throw InvalidInputError(store_ + ": the " + what + " was refused (HTTP " +
                            std::to_string(failure->status) + message + "). Nothing was written.");
  }
  throw InfrastructureError(store_ + ": the " + what + " failed at its operation " +
                            std::to_string(failure->index) + " (HTTP " +
                            std::to_string(failure->status) + message +
                            "). Nothing was written; retry the append.");
}

AppendResult CosmosEventStore::do_append(const StreamId& stream, ExpectedVersion expected,
                                         std::vector<RecordedEvent> events) {
  if (events.size() > kMaxAppendEvents) {
    throw InvalidInputError(store_ + ": an append of " + std::to_string(events.size()) +
                            " events to " + stream.describe() +
                            " needs one operation per event in one transactional batch, and "
                            "Cosmos DB takes 100 operations per batch, one of them the read "
                            "proving the expected version. Nothing was written. Append at most " +
                            std::to_string(kMaxAppendEvents) + " events per call.");
  }
  const std::string key = event::stream_key(stream);  // refuses a key over the limits
  // Sizes are checked once, before anything is read or written.
  items(key, expected.is_any() ? 0 : expected.value(), events);
  rekey_marker_.check(client_);
  client_.ensure_container(container_, event::kPartitionKeyPath);
  if (expected.is_no_stream()) {
    guard_.check(client_);  // a create that assumes nothing is there
  }
  for (int attempt = 1;; ++attempt) {
    const std::int64_t base = expected.is_any() ? current_version(key) : expected.value();
    if (expected.is_any() && base == kNoStreamVersion) {
      guard_.check(client_);  // a version read that found nothing
    }
    if (send_append(key, base, items(key, base, events))) {
      return kit::appended(events);
    }
    if (!expected.is_any()) {
      break;  // another appender wrote at one of these versions, or the stream is short
    }
    if (attempt == kMaxAnyVersionAttempts) {
      throw InfrastructureError(store_ + ": an any-version append to " + stream.describe() +
                                " was overtaken by " + std::to_string(kMaxAnyVersionAttempts) +
                                " concurrent appends in a row and was not applied; retry later");
    }
  }
  return VersionConflict{.subject = "append to " + stream.describe(),
                         .expected_version = expected.value(),
                         .actual_version = current_version(key)};
}

AppendResult CosmosEventStore::do_append_in(HandlerTransaction& transaction,
                                            const StreamId& /*stream*/,
                                            ExpectedVersion /*expected*/,
                                            std::vector<RecordedEvent> /*events*/) {
  throw cannot_join_error(
      transaction,
      "a Cosmos DB transactional batch holds one partition of one container, and "
      "a stream's events are a partition of their own in container '" +
          container_ +
          "', never the inbox's tenant partition; append without the transaction "
          "after the message is handled (the claim inbox retries a handler that "
          "failed), or stage what projections need through the outbox");
}

std::int64_t CosmosEventStore::current_version(const std::string& key) const {
  // The top version alone, read in the stream's partition (the last event is the highest
  // version: events are never deleted).
  const std::vector<nlohmann::json> top =
      query_items(client_,
                  {.container = container_,
                   .sql = "SELECT TOP 1 VALUE c.version FROM c WHERE c.streamId = @stream ORDER BY "
                          "c.version DESC",
                   .parameters = {{{"name", "@stream"}, {"value", key}}},
                   .partition = key},
                  1);
  if (top.empty()) {
    return kNoStreamVersion;
  }
  if (!top.front().is_number_integer()) {
    throw InfrastructureError(store_ + ": an item of stream '" + key.substr(0, 200) +
                              "' has no integer version; it was not written by docket");
  }
  return top.front().get<std::int64_t>();
}

std::vector<RecordedEvent> CosmosEventStore::do_load(const StreamId& stream,
                                                     std::int64_t from_version) {
  const std::string key = event::stream_key(stream);
  rekey_marker_.check(client_);
  client_.ensure_container(container_, event::kPartitionKeyPath);
  const std::vector<nlohmann::json> found =
      query_items(client_,
                  {.container = container_,
                   .sql = "SELECT * FROM c WHERE c.streamId = @stream AND c.version >= @from "
                          "ORDER BY c.version",
                   .parameters = {{{"name", "@stream"}, {"value", key}},
                                  {{"name", "@from"}, {"value", from_version}}},
                   .partition = key},
                  std::numeric_limits<std::size_t>::max());
  std::vector<RecordedEvent> events;
  events.reserve(found.size());
  for (const nlohmann::json& item : found) {
    events.push_back(event::event_of(item, stream, store_));
  }
  if (events.empty()) {
    guard_.check(client_);  // a load that came back empty
  }
  return events;
}

std::unique_ptr<EventStore> open_event_store(std::string_view url, const Clock& clock) {
  return std::make_unique<CosmosEventStore>(url, clock);
}

}  // namespace docket::cosmos::detail
