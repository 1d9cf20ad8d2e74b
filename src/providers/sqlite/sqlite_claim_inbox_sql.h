// Every statement of the SQLite claim inbox, as named constants: the store runs
// exactly these (each prepared once per connection), and so can a benchmark that
// measures the store against SQLite driven directly with the same SQL.
//
// Parameters are ?1..?N in the order each comment lists; times are Unix microseconds
// (kit::to_micros). An entry's key binds as ?1 tenant, ?2 message id, ?3 handler type
// wherever a statement addresses one entry, a claim's token (ClaimToken) as ?4 owner,
// ?5 claim id. Each text is a NUL-terminated literal, so data() can go to
// sqlite3_prepare_v2 as is.
//
// try_claim is, on one connection:
//   BEGIN IMMEDIATE; kTryClaim; [only when it returned no row: kClaimHolder]; COMMIT
// every other operation is one autocommit statement.
//
// Thread-safety: constants.
#ifndef DOCKET_PROVIDERS_SQLITE_SQLITE_CLAIM_INBOX_SQL_H_
#define DOCKET_PROVIDERS_SQLITE_SQLITE_CLAIM_INBOX_SQL_H_

#include <string_view>

namespace docket::sqlite::detail::claim_sql {

// A whole entry, in the column order of kit::ClaimColumn (providers/kit/claim_row.h).
#define DOCKET_CLAIM_COLUMNS                                                                \
  "tenant, message_id, handler_type, status, retry_count, received_at, updated_at, owner, " \
  "claim_id, lease_until, processed_at, last_error, next_attempt_at"

// ?1-?3 key, ?4 owner, ?5 claim id (the claim's token), ?6 now, ?7 lease end. Inserts
// the entry as processing, or takes over a claimable one (received, failed, or
// processing with its lease ended); the retry count is kept. Returns (retry_count,
// lease_until) when it claimed, no row when the entry is processed or another claim's
// lease is live.
inline constexpr std::string_view kTryClaim =
    "INSERT INTO docket_claim_inbox (tenant, message_id, handler_type, status, retry_count, "
    "received_at, updated_at, owner, claim_id, lease_until) VALUES (?1, ?2, ?3, 'processing', 0, "
    "?6, ?6, ?4, ?5, ?7) ON CONFLICT (tenant, message_id, handler_type) DO UPDATE SET "
    "status = 'processing', updated_at = excluded.updated_at, owner = excluded.owner, "
    "claim_id = excluded.claim_id, lease_until = excluded.lease_until "
    "WHERE docket_claim_inbox.status IN ('received', 'failed') OR "
    "(docket_claim_inbox.status = 'processing' AND "
    "docket_claim_inbox.lease_until <= excluded.updated_at) "
    "RETURNING retry_count, lease_until";

// ?1-?3 key. Why kTryClaim claimed nothing, in its transaction: (status, retry_count,
// lease_until).
inline constexpr std::string_view kClaimHolder =
    "SELECT status, retry_count, lease_until FROM docket_claim_inbox "
    "WHERE tenant = ?1 AND message_id = ?2 AND handler_type = ?3";

// The entry ?1-?3 while the claim of token (?4 owner, ?5 claim id) is its current one,
// its lease over or not. An entry written before schema version 2 has no claim id and
// so matches no token: its claim (by a docket without tokens) is left to run out.
#define DOCKET_CLAIM_HELD                                                      \
  " WHERE tenant = ?1 AND message_id = ?2 AND handler_type = ?3 AND status = " \
  "'processing' AND owner = ?4 AND claim_id = ?5"

// ?1-?3 key, ?4-?5 token, ?6 now. One row changed iff the token's claim was current. A
// processed entry keeps its last error and drops its retry time, as try_mark_processed's
// does.
inline constexpr std::string_view kMarkProcessed =
    "UPDATE docket_claim_inbox SET status = 'processed', processed_at = ?6, updated_at = ?6, "
    "owner = NULL, claim_id = NULL, lease_until = NULL, next_attempt_at = NULL" DOCKET_CLAIM_HELD;

// ?1-?3 key, ?4-?5 token, ?6 now.
inline constexpr std::string_view kRelease =
    "UPDATE docket_claim_inbox SET status = 'received', updated_at = ?6, owner = NULL, "
    "claim_id = NULL, lease_until = NULL" DOCKET_CLAIM_HELD;

// ?1-?3 key, ?4-?5 token, ?6 now, ?7 error text, ?8 next attempt.
inline constexpr std::string_view kMarkFailed =
    "UPDATE docket_claim_inbox SET status = 'failed', retry_count = retry_count + 1, "
    "last_error = ?7, next_attempt_at = ?8, updated_at = ?6, owner = NULL, claim_id = NULL, "
    "lease_until = NULL" DOCKET_CLAIM_HELD;

// ?1-?3 key, ?4-?5 token, ?6 now, ?7 the new lease end. Returns (lease_until) iff the
// token's claim was current and is now extended.
inline constexpr std::string_view kRenew =
    "UPDATE docket_claim_inbox SET lease_until = ?7, updated_at = ?6" DOCKET_CLAIM_HELD
    " RETURNING lease_until";

// ?1-?3 key, ?4 now. One row changed iff the entry was absent or not processed.
inline constexpr std::string_view kTryMarkProcessed =
    "INSERT INTO docket_claim_inbox (tenant, message_id, handler_type, status, retry_count, "
    "received_at, updated_at, processed_at) VALUES (?1, ?2, ?3, 'processed', 0, ?4, ?4, ?4) "
    "ON CONFLICT (tenant, message_id, handler_type) DO UPDATE SET status = 'processed', "
    "processed_at = excluded.processed_at, updated_at = excluded.updated_at, owner = NULL, "
    "claim_id = NULL, lease_until = NULL, next_attempt_at = NULL "
    "WHERE docket_claim_inbox.status <> 'processed'";

// ?1-?3 key, ?4 now. One row changed iff the entry is failed: due for a retry now, its
// retry count and last error kept.
inline constexpr std::string_view kRetryNow =
    "UPDATE docket_claim_inbox SET next_attempt_at = ?4, updated_at = ?4 "
    "WHERE tenant = ?1 AND message_id = ?2 AND handler_type = ?3 AND status = 'failed'";

// ?1-?3 key.
inline constexpr std::string_view kFind = "SELECT " DOCKET_CLAIM_COLUMNS
                                          " FROM docket_claim_inbox WHERE tenant = ?1 AND "
                                          "message_id = ?2 AND handler_type = ?3";

// ?1 now, ?2 max retries, ?3 limit. Index docket_claim_inbox_failed (its entries end
// with the key, so the order needs no sort).
inline constexpr std::string_view kFailedDue =
    "SELECT " DOCKET_CLAIM_COLUMNS
    " FROM docket_claim_inbox WHERE status = 'failed' AND next_attempt_at <= ?1 AND "
    "retry_count < ?2 ORDER BY next_attempt_at, tenant, message_id, handler_type LIMIT ?3";

// ?1 now. One row: received, processing, processed, failed, oldest pending received_at
// (NULL when none), failed due. One pass over the covering index
// docket_claim_inbox_counts, with no GROUP BY sort.
#define DOCKET_CLAIM_COUNTS                                                                       \
  "SELECT count(*) FILTER (WHERE status = 'received'), "                                          \
  "count(*) FILTER (WHERE status = 'processing'), count(*) FILTER (WHERE status = 'processed'), " \
  "count(*) FILTER (WHERE status = 'failed'), "                                                   \
  "min(received_at) FILTER (WHERE status <> 'processed'), "                                       \
  "count(*) FILTER (WHERE status = 'failed' AND next_attempt_at <= ?1) FROM docket_claim_inbox"
inline constexpr std::string_view kCounts = DOCKET_CLAIM_COUNTS;
// ?1 now, ?2 tenant.
inline constexpr std::string_view kTenantCounts = DOCKET_CLAIM_COUNTS " WHERE tenant = ?2";

// ?1-?3 the key to start after (empty texts: from the first), ?4 status or NULL for
// every status, ?5 rows to read. Key order, SQLite's BINARY (byte) order.
inline constexpr std::string_view kEntries =
    "SELECT " DOCKET_CLAIM_COLUMNS
    " FROM docket_claim_inbox WHERE (tenant, message_id, handler_type) > (?1, ?2, ?3) AND "
    "(?4 IS NULL OR status = ?4) ORDER BY tenant, message_id, handler_type LIMIT ?5";
// ?1 tenant, ?2-?3 the message id and handler type to start after within it (empty
// texts: from the first), ?4 status or NULL, ?5 rows to read.
inline constexpr std::string_view kTenantEntries =
    "SELECT " DOCKET_CLAIM_COLUMNS
    " FROM docket_claim_inbox WHERE tenant = ?1 AND (message_id, handler_type) > (?2, ?3) AND "
    "(?4 IS NULL OR status = ?4) ORDER BY message_id, handler_type LIMIT ?5";

// ?1 cutoff, ?2 limit. Deletes at most ?2 processed entries processed before ?1
// (strictly), oldest first. Index docket_claim_inbox_processed.
inline constexpr std::string_view kCleanup =
    "DELETE FROM docket_claim_inbox WHERE (tenant, message_id, handler_type) IN "
    "(SELECT tenant, message_id, handler_type FROM docket_claim_inbox "
    "WHERE status = 'processed' AND processed_at < ?1 ORDER BY processed_at LIMIT ?2)";
// ?1 cutoff, ?2 limit, ?3 tenant. Index docket_claim_inbox_tenant_processed.
inline constexpr std::string_view kTenantCleanup =
    "DELETE FROM docket_claim_inbox WHERE (tenant, message_id, handler_type) IN "
    "(SELECT tenant, message_id, handler_type FROM docket_claim_inbox "
    "WHERE tenant = ?3 AND status = 'processed' AND processed_at < ?1 "
    "ORDER BY processed_at LIMIT ?2)";

// ?1 cutoff: how many entries kCleanup would delete, in all.
inline constexpr std::string_view kCountCleanable =
    "SELECT count(*) FROM docket_claim_inbox WHERE status = 'processed' AND processed_at < ?1";
// ?1 cutoff, ?2 tenant.
inline constexpr std::string_view kTenantCountCleanable =
    "SELECT count(*) FROM docket_claim_inbox WHERE tenant = ?2 AND status = 'processed' AND "
    "processed_at < ?1";

#undef DOCKET_CLAIM_COUNTS
#undef DOCKET_CLAIM_HELD
#undef DOCKET_CLAIM_COLUMNS

}  // namespace docket::sqlite::detail::claim_sql

#endif  // DOCKET_PROVIDERS_SQLITE_SQLITE_CLAIM_INBOX_SQL_H_
