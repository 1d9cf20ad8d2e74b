// The outbox's table: one item per staged message, and one counter item.
//
//   table  <table_prefix>docket_outbox, partition key id (S): the message id (a UUIDv7,
//          the term itself: nothing is composed), no sort key
//   message item  sequence (N); tenant, event_type (S); payload (B); occurred_at,
//          created_at (N, Unix microseconds); source, causation_id, correlation_id,
//          traceparent, tracestate (S) when present; status (N: 0 pending, 1 done,
//          2 parked, 3 skipped); attempts, next_attempt_at (N); last_error (S) when set;
//          destination, ordering_key (S) when not empty / present, headers (S, the
//          kit::encode_headers text) when there are any: an item without them (staged
//          before routing existed) reads as the default route, no key, no headers;
//          lease_token (S), lease_until (N) while leased; done_at (N) once done;
//          feed_shard (N, always) and exactly one of pending_shard, parked_shard,
//          done_shard (N), the one of its status: the shard is sequence % kShards
//   counter item  id kCounterId (not a UUID, so no message has it): last_sequence (N),
//          the highest sequence handed out (dynamodb_sequence_counter.h). A message's
//          sequence, and the shards that derive from it, are drawn from it when its
//          unit of work commits, not when it is staged (number_item)
//
// Global secondary indexes, each keyed by a shard and projecting the item:
//   pending  pending_shard / sequence   only pending items: the relay's claim
//   parked   parked_shard / sequence    only parked items: the operator's list
//   done     done_shard / done_at       only done items: retention
//   feed     feed_shard / sequence      every message: read_feed
// An item enters and leaves the first three as its status attribute is set and
// removed, so each is sparse: a read of one never passes an item of another status.
//
// Thread-safety: constants and pure functions.
#ifndef DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_OUTBOX_TABLE_H_
#define DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_OUTBOX_TABLE_H_

#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <string_view>

#include "docket/outbox/outbox_message.h"
#include "providers/dynamodb/dynamodb_sequence_counter.h"
#include "providers/dynamodb/dynamodb_table_schema.h"
#include "providers/dynamodb/dynamodb_url.h"

namespace docket::dynamodb::detail::outbox {

inline constexpr std::int64_t kShards = 4;
inline constexpr std::string_view kCounterId = "docket:outbox:sequence";

inline constexpr std::string_view kId = "id";
inline constexpr std::string_view kSequence = "sequence";
inline constexpr std::string_view kLastSequence = "last_sequence";
inline constexpr std::string_view kStatus = "status";
inline constexpr std::string_view kDoneAt = "done_at";
inline constexpr std::string_view kDestination = "destination";
inline constexpr std::string_view kOrderingKey = "ordering_key";
inline constexpr std::string_view kHeaders = "headers";
inline constexpr std::string_view kFeedShard = "feed_shard";
inline constexpr std::string_view kPendingShard = "pending_shard";
inline constexpr std::string_view kParkedShard = "parked_shard";
inline constexpr std::string_view kDoneShard = "done_shard";

inline constexpr std::string_view kPendingIndex = "pending";
inline constexpr std::string_view kParkedIndex = "parked";
inline constexpr std::string_view kDoneIndex = "done";
inline constexpr std::string_view kFeedIndex = "feed";

// The table of the store URL `url`.
TableSchema outbox_table_schema(const StoreUrl& url);

// {"id": {"S": id}}.
nlohmann::json message_key(std::string_view id);

// The sequence a message is staged with until its unit's commit numbers it: the
// largest, so that the item is never larger once numbered (a number's size grows with
// its digits) and the size checked at staging bounds the size sent.
inline constexpr std::int64_t kUnnumbered = std::numeric_limits<std::int64_t>::max();

// The counter the messages of the table `table` draw their sequences from.
SequenceCounter sequence_counter(std::string_view table);

// The whole item of a newly staged `record` (its sequence assigned, or kUnnumbered):
// pending, in the pending and feed indexes. Throws InvalidInputError when it is over
// 400 KB.
nlohmann::json message_item(const TableSchema& schema, const OutboxRecord& record);

// Gives the message item `item` the sequence `sequence`: its sequence and its shards.
void number_item(nlohmann::json& item, std::int64_t sequence);

// The record an item holds. Throws InfrastructureError naming `store` for an item
// docket did not write.
OutboxRecord record_of(const nlohmann::json& item, std::string_view store);

}  // namespace docket::dynamodb::detail::outbox

#endif  // DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_OUTBOX_TABLE_H_
