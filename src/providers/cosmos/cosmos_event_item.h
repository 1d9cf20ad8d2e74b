// The Cosmos DB event store's items, and the field reader the event-sourcing items
// (events, snapshots, sagas) share.
//
// One item per event in the container {prefix}docket_events, partitioned by the property
// streamId: the stream key of src/keys for Cosmos DB, t:{tenant}:{aggregateType}:
// {aggregateId} (each term escaped; at most 2,048 bytes, the partition key limit), so a
// stream is one logical partition and an append is one transactional batch in it. Its
// fields:
//
//   id              the version as decimal text ("0", "1", ...): unique in the partition,
//                   so a create at a version already written is refused (409)
//   streamId        the stream key (the partition key)
//   tenant, aggregateType, aggregateId   the stream's terms, readable
//   version         number
//   eventId         UUID text
//   type            text
//   payload         the payload's bytes, base64 (opaque: never read as text)
//   occurredAt      Unix microseconds as decimal text: the caller's time may lie outside
//                   what a double (JavaScript's number, the service's) holds exactly
//   correlationId, causationId, traceparent, tracestate   text, only when not empty
//
// Invariant: events are never changed or deleted once written, so an item found at a
// version stays there: that is what lets an append prove "the stream is at N" by a read
// of item N inside its batch.
//
// Thread-safety: pure functions and immutable values.
#ifndef DOCKET_PROVIDERS_COSMOS_COSMOS_EVENT_ITEM_H_
#define DOCKET_PROVIDERS_COSMOS_COSMOS_EVENT_ITEM_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "docket/core/clock.h"
#include "docket/eventsourcing/event.h"
#include "docket/eventsourcing/stream_id.h"

namespace docket::cosmos::detail {

// Reads the fields of an item docket wrote; a missing or mistyped field is an
// InfrastructureError naming the store, the item and the field (an item docket did not
// write, or a hand edit).
class ItemFields {
 public:
  ItemFields(const nlohmann::json& item, std::string_view store);

  std::string text(std::string_view field) const;
  std::optional<std::string> optional_text(std::string_view field) const;
  std::int64_t integer(std::string_view field) const;
  std::optional<std::int64_t> optional_integer(std::string_view field) const;
  Timestamp time(std::string_view field) const;
  // A time written as decimal text of Unix microseconds (exact over the whole range,
  // cosmos_exact_time.h).
  Timestamp text_time(std::string_view field) const;
  // A base64 field's bytes.
  std::string bytes(std::string_view field) const;

 private:
  [[noreturn]] void fail(std::string_view field, std::string_view wanted) const;

  const nlohmann::json& item_;
  std::string_view store_;
};

namespace event {

inline constexpr std::string_view kContainer = "docket_events";
inline constexpr std::string_view kPartitionKeyPath = "/streamId";
inline constexpr std::string_view kStreamField = "streamId";

// The stream's key (its partition). Throws KeyTooLongError naming the term to shorten.
std::string stream_key(const StreamId& stream);

// The item id of the event at `version`.
std::string version_id(std::int64_t version);

// The whole item of `event` (numbered) in the stream keyed `key`.
nlohmann::json event_item(std::string_view key, const RecordedEvent& event);

// The event an item holds, of `stream`. Throws InfrastructureError naming `store`.
RecordedEvent event_of(const nlohmann::json& item, const StreamId& stream, std::string_view store);

}  // namespace event
}  // namespace docket::cosmos::detail

#endif  // DOCKET_PROVIDERS_COSMOS_COSMOS_EVENT_ITEM_H_
