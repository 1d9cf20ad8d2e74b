// The outbox's table: one item per staged message, one counter item, and one key item
// per (tenant, ordering key) that has had a message staged.
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
//   key item  id docket:outbox:key:t:{tenant}:{orderingKey}, composed by src/keys
//          (keys/dynamodb_key.h; no UUID has it): held (NS), the sequences of the
//          key's messages that are pending or parked, read with ConsistentRead by the
//          claim; last_held (N), the highest sequence ever added to it. A keyed
//          message's sequence enters held in the TransactWriteItems that stages it (the
//          unit's hold action, dynamodb_sequence_counter.h), and leaves it only in the
//          one that completes, skips, cancels or purges it (release_action,
//          dynamodb_outbox_requests.h): never one without the other. At most
//          kMaxHeldPerKey. A message staged before key items existed is in no held set.
//          An emptied key item (id, last_held) is harmless: purge_done_batch deletes it.
//
// Global secondary indexes, each keyed by a shard and projecting the item:
//   pending  pending_shard / sequence   only pending items: the relay's claim
//   parked   parked_shard / sequence    only parked items: the operator's list
//   done     done_shard / done_at       only done items: retention
//   feed     feed_shard / sequence      every message: read_feed
// An item enters and leaves the first three as its status attribute is set and
// removed, so each is sparse: a read of one never passes an item of another status.
// The counter and key items carry no shard, so no index holds them.
//
// Thread-safety: constants and pure functions.
#ifndef DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_OUTBOX_TABLE_H_
#define DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_OUTBOX_TABLE_H_

#include <cstddef>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "docket/outbox/outbox_message.h"
#include "providers/dynamodb/dynamodb_limits.h"
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
inline constexpr std::string_view kHeld = "held";
inline constexpr std::string_view kLastHeld = "last_held";

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

// The most sequences one key item holds, so the most unpublished (pending or parked)
// messages one ordering key of one tenant can have: a sequence (a positive 64-bit
// integer, at most 19 digits) takes at most 11 bytes in a number set (one per two
// digits, plus one), and the item's id and last_held take under 1 KB (a tenant of 256
// bytes and a key of 255), so 37,143 sequences keep the item under DynamoDB's 400 KB.
inline constexpr std::size_t kLargestSequenceBytes = 11;
inline constexpr std::size_t kKeyItemOverheadBytes = 1024;
inline constexpr std::size_t kMaxHeldPerKey =
    (kMaxItemBytes - kKeyItemOverheadBytes) / kLargestSequenceBytes;
static_assert(kMaxHeldPerKey == 37143);

// The key item's primary key for `ordering_key` of `tenant`.
nlohmann::json key_item_key(std::string_view tenant, std::string_view ordering_key);

// The hold a message of `record` staged in `table` takes on its key item: none
// without an ordering key.
std::optional<SequenceHold> hold_of(std::string_view table, const OutboxRecord& record);

// The sequences the key item `item` holds (none when it holds none). Throws
// InfrastructureError naming `store` for a set docket did not write.
std::vector<std::int64_t> held_of(const nlohmann::json& item, std::string_view store);

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
