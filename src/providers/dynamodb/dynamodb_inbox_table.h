// The transactional inbox's table: one item per (tenant, consumer, message) processed.
//
//   table  <table_prefix>docket_inbox_messages, partition key id (S): the dedup id
//          {tenant}:{messageId}:{consumerId} of src/keys (kit::inbox_dedup_id), no sort key
//   every item  tenant, consumer_id, message_id, event_type (S); occurred_at,
//          processed_at (N, Unix microseconds); shard (N, 0..claim::kShards-1, from the
//          id, as the claim inbox shards); source, causation_id, correlation_id (S) when
//          the envelope has them
//
// Global secondary index shard_processed (shard / processed_at), projecting the item:
// the retention purge's read of every tenant's items processed before a cutoff, one
// Query per shard, so that no read scans the table.
//
// Thread-safety: constants and pure functions.
#ifndef DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_INBOX_TABLE_H_
#define DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_INBOX_TABLE_H_

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "docket/core/clock.h"
#include "docket/inbox/inbox_store.h"
#include "providers/dynamodb/dynamodb_table_schema.h"
#include "providers/dynamodb/dynamodb_url.h"

namespace docket::dynamodb::detail::inbox {

inline constexpr std::string_view kId = "id";
inline constexpr std::string_view kProcessedAt = "processed_at";
inline constexpr std::string_view kShard = "shard";
inline constexpr std::string_view kShardProcessedIndex = "shard_processed";

// The table of the store URL `url`.
TableSchema inbox_table_schema(const StoreUrl& url);

// The item's key {"id": {"S": ...}}, checked against DynamoDB's key limits. Throws
// KeyTooLongError or InvalidKeyTermError (src/keys) for a key that cannot be composed.
nlohmann::json dedup_key(const TableSchema& schema, const DedupKey& key);

// The whole item of `record`, processed at `processed_at`, checked against the limits.
nlohmann::json dedup_item(const TableSchema& schema, const InboxRecord& record,
                          Timestamp processed_at);

}  // namespace docket::dynamodb::detail::inbox

#endif  // DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_INBOX_TABLE_H_
