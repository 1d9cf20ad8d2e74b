// The claim inbox's table: its name, its attributes and its indexes.
//
//   table  <table_prefix>docket_claim_inbox, partition key id (S): the inbox entry id
//          {tenant}:{messageId}:{handlerType} of src/keys (kit::inbox_entry_id), no
//          sort key
//   every item  tenant, message_id, handler_type (S): the id's terms, which the re-key
//          procedure of an upgrade reads; status (S); retry_count, received_at,
//          updated_at (N); shard (N, 0..kShards-1, from the id, never changes)
//   while processing  owner (S), claim_id (S), lease_until (N): the claim's token
//                     (ClaimToken), which every mark, release and renewal must present
//                     whole; an entry claimed before claim ids existed has no claim_id,
//                     and no token presented now matches it (claimable again once its
//                     lease is over, like any)
//   once processed    processed_at (N)
//   once failed       last_error (S) and next_attempt_at (N), kept afterwards;
//                     failed_due_at (N, = next_attempt_at) only while failed
//   times are Unix microseconds (kit/time_codec.h)
//
// Global secondary indexes, each sparse (an item is in an index only while it has the
// index's sort key attribute), each projecting the whole item:
//   tenant_processed   tenant / processed_at    one tenant's processed entries by age:
//                                               cleanup and count_cleanable of a tenant
//   shard_processed    shard / processed_at     every tenant's, one query per shard
//   shard_failed_due   shard / failed_due_at    failed entries by due time: failed_due
// The shard spreads the all-tenant indexes over kShards partitions, so that a busy
// inbox's writes never meet in one index partition.
//
// Thread-safety: constants and pure functions.
#ifndef DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_CLAIM_TABLE_H_
#define DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_CLAIM_TABLE_H_

#include <cstdint>
#include <string_view>

#include "providers/dynamodb/dynamodb_table_schema.h"
#include "providers/dynamodb/dynamodb_url.h"

namespace docket::dynamodb::detail::claim {

inline constexpr std::string_view kTableBase = "docket_claim_inbox";

inline constexpr std::string_view kId = "id";
inline constexpr std::string_view kTenant = "tenant";
inline constexpr std::string_view kMessageId = "message_id";
inline constexpr std::string_view kHandlerType = "handler_type";
inline constexpr std::string_view kStatus = "status";
inline constexpr std::string_view kRetryCount = "retry_count";
inline constexpr std::string_view kReceivedAt = "received_at";
inline constexpr std::string_view kUpdatedAt = "updated_at";
inline constexpr std::string_view kOwner = "owner";
inline constexpr std::string_view kClaimId = "claim_id";
inline constexpr std::string_view kLeaseUntil = "lease_until";
inline constexpr std::string_view kProcessedAt = "processed_at";
inline constexpr std::string_view kLastError = "last_error";
inline constexpr std::string_view kNextAttemptAt = "next_attempt_at";
inline constexpr std::string_view kFailedDueAt = "failed_due_at";
inline constexpr std::string_view kShard = "shard";

inline constexpr std::string_view kTenantProcessedIndex = "tenant_processed";
inline constexpr std::string_view kShardProcessedIndex = "shard_processed";
inline constexpr std::string_view kShardFailedIndex = "shard_failed_due";

// Changing it would hide the items of the shards it drops: it is part of the format.
inline constexpr std::int64_t kShards = 16;

// The table of the store URL `url`.
TableSchema claim_table_schema(const StoreUrl& url);

// The shard of the entry whose id is `entry_id`: FNV-1a (32 bits) of its bytes, modulo
// kShards. Stable across processes, builds and platforms.
std::int64_t shard_of(std::string_view entry_id) noexcept;

}  // namespace docket::dynamodb::detail::claim

#endif  // DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_CLAIM_TABLE_H_
