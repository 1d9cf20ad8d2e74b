// The PostgreSQL claim inbox's statements (table docket_claim_inbox, see
// claim_inbox_schema.h), each one round trip, with the name it is prepared under: the
// store runs exactly these, and so can a benchmark talking to libpq directly.
//
// Parameters: text for tenant, message id, handler type, owner, claim id, status and
// error; int8 for times (microseconds since the epoch, timestamp_sql.h), durations
// (microseconds), counts and limits. Rows of
// entries come as kClaimColumns (claim_rows.h decodes them). Every statement is one
// autocommit statement at READ COMMITTED.
//
// Thread-safety: constants.
#ifndef DOCKET_PROVIDERS_POSTGRES_CLAIM_SQL_H_
#define DOCKET_PROVIDERS_POSTGRES_CLAIM_SQL_H_

#include <string_view>

#include "providers/postgres/postgres_timestamp_sql.h"

namespace docket::postgres::detail::claim_sql {

struct Statement {
  std::string_view name;  // the prepared statement's name, unique per connection
  std::string_view sql;
};

// The statements are laid out by hand, a clause a line.
// clang-format off
#define DOCKET_CLAIM_COLUMNS                                                     \
  "tenant, message_id, handler_type, status, retry_count, "                      \
  DOCKET_US("received_at") ", " DOCKET_US("updated_at") ", owner, claim_id, "    \
  DOCKET_US("lease_until") ", " DOCKET_US("processed_at") ", last_error, "       \
  DOCKET_US("next_attempt_at")
#define DOCKET_CLAIM_KEY "tenant = $1 AND message_id = $2 AND handler_type = $3"

// The time a statement takes and compares leases at, and stamps its changes with:
// `param` (int8 microseconds) when bound, the server's clock when NULL. The store binds
// NULL unless its Clock is simulated (a test moving time by hand), so that a process
// whose clock is skewed cannot take over a live lease early (issue 37): every claimer
// reads the one clock of the server. A CTE of its own, read by the statement wherever it
// needs the time: clock_timestamp() is volatile, so the CTE is evaluated once, and every
// column a statement stamps gets the same instant.
#define DOCKET_CLAIM_CLOCK(param)                                                \
  "clock AS (SELECT COALESCE(" DOCKET_TS(param) ", clock_timestamp()) AS ts)"
// A lease's end: the clock's time plus `param` (int8 microseconds).
#define DOCKET_CLAIM_LEASE_END(param) "clock.ts + " param " * interval '1 microsecond'"
// The entry of a claim token still current: $4 owner, $5 claim id (ClaimToken). An entry
// written before schema version 2 has no claim id and so matches no token.
#define DOCKET_CLAIM_HELD "status = 'processing' AND owner = $4 AND claim_id = $5"

// An entry's columns, in the order of kit::ClaimColumn (providers/kit/claim_row.h).
inline constexpr std::string_view kClaimColumns = DOCKET_CLAIM_COLUMNS;

// $1 tenant, $2 message id, $3 handler type, $4 owner, $5 claim id (the claim's token),
// $6 now (NULL: the server's clock, DOCKET_CLAIM_CLOCK), $7 lease (microseconds). One
// row: claimed (bool), status, retry_count, lease_until (microseconds, NULL unless
// processing).
//
// An absent entry is inserted as processing; a received, failed or expired one is
// taken by ON CONFLICT DO UPDATE ... WHERE, which locks the newest version of the row
// and evaluates the WHERE on it, so of concurrent claimers exactly one wins (retry_count
// is never touched). When the WHERE is false, `current` reports the entry as it is:
// FOR UPDATE makes it read the newest version (the one the WHERE saw, which this
// statement now holds locked) rather than the statement's snapshot, so another
// owner's lease is reported, not an older state (without it, a claimer that lost to a
// concurrent one would report the expired lease it saw at its start). One case yields
// no row at all: the entry was inserted by a transaction that committed after this
// statement's snapshot was taken (the INSERT waited for it, then found the conflict),
// so `current` cannot see it, FOR UPDATE or not. The caller then runs the statement
// again: its new snapshot sees the row. The time is read before any wait for a row
// lock: a lease that ran out during the wait is still live for this statement (the
// safe side).
inline constexpr Statement kTryClaim{
    "docket_claim_try_claim",
    "WITH " DOCKET_CLAIM_CLOCK("$6") ", claimed AS ("
      "INSERT INTO docket_claim_inbox AS c (tenant, message_id, handler_type, status, "
        "retry_count, received_at, updated_at, owner, claim_id, lease_until) "
      "SELECT $1, $2, $3, 'processing', 0, clock.ts, clock.ts, $4, $5, "
        DOCKET_CLAIM_LEASE_END("$7") " FROM clock "
      "ON CONFLICT (tenant, message_id, handler_type) DO UPDATE "
      "SET status = 'processing', owner = excluded.owner, claim_id = excluded.claim_id, "
        "lease_until = excluded.lease_until, updated_at = excluded.updated_at "
      "WHERE c.status IN ('received', 'failed') "
        "OR (c.status = 'processing' AND c.lease_until <= excluded.updated_at) "
      "RETURNING true AS claimed, c.status, c.retry_count, "
        DOCKET_US("c.lease_until") " AS lease_until"
    "), current AS ("
      "SELECT false AS claimed, status, retry_count, " DOCKET_US("lease_until") " AS lease_until "
      "FROM docket_claim_inbox "
      "WHERE " DOCKET_CLAIM_KEY " AND NOT EXISTS (SELECT 1 FROM claimed) "
      "FOR UPDATE"
    ") "
    "SELECT * FROM claimed UNION ALL SELECT * FROM current"};

// try_claim_batch: kTryClaim over a whole batch in one statement. $1, $2, $3 the
// batch's tenants, message ids and handler types, $4, $5 its tokens' owners and claim
// ids, as text[] literals (one element per entry, no entry twice), $6 now (NULL: the
// server's clock), $7 lease (microseconds). One row per entry answered: ord (the entry's
// 1-based place in the arrays), then kTryClaim's four columns.
//
// The rows are inserted in key order (bytewise, COLLATE "C"), and ON CONFLICT DO
// UPDATE locks every conflicting row whether or not its WHERE holds, so concurrent
// batches lock their common entries in one order and cannot deadlock (the marks lock in
// the same order). An entry that gets no row is the case kTryClaim describes (inserted
// by a transaction that committed after this statement's snapshot): run kTryClaim for it.
inline constexpr Statement kTryClaimBatch{
    "docket_claim_try_claim_batch",
    "WITH input AS ("
      "SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) "
        "WITH ORDINALITY AS i (tenant, message_id, handler_type, owner, claim_id, ord)"
    "), " DOCKET_CLAIM_CLOCK("$6") ", claimed AS ("
      "INSERT INTO docket_claim_inbox AS c (tenant, message_id, handler_type, status, "
        "retry_count, received_at, updated_at, owner, claim_id, lease_until) "
      "SELECT input.tenant, input.message_id, input.handler_type, 'processing', 0, clock.ts, "
        "clock.ts, input.owner, input.claim_id, " DOCKET_CLAIM_LEASE_END("$7") " "
      "FROM input, clock "
      "ORDER BY input.tenant COLLATE \"C\", input.message_id COLLATE \"C\", "
        "input.handler_type COLLATE \"C\" "
      "ON CONFLICT (tenant, message_id, handler_type) DO UPDATE "
      "SET status = 'processing', owner = excluded.owner, claim_id = excluded.claim_id, "
        "lease_until = excluded.lease_until, updated_at = excluded.updated_at "
      "WHERE c.status IN ('received', 'failed') "
        "OR (c.status = 'processing' AND c.lease_until <= excluded.updated_at) "
      "RETURNING c.tenant, c.message_id, c.handler_type, true AS claimed, c.status, "
        "c.retry_count, " DOCKET_US("c.lease_until") " AS lease_until"
    "), current AS ("
      "SELECT d.tenant, d.message_id, d.handler_type, false AS claimed, d.status, "
        "d.retry_count, " DOCKET_US("d.lease_until") " AS lease_until "
      "FROM docket_claim_inbox AS d JOIN input AS i ON d.tenant = i.tenant "
        "AND d.message_id = i.message_id AND d.handler_type = i.handler_type "
      "WHERE NOT EXISTS (SELECT 1 FROM claimed AS x WHERE x.tenant = d.tenant "
        "AND x.message_id = d.message_id AND x.handler_type = d.handler_type) "
      "FOR UPDATE OF d"
    ") "
    "SELECT i.ord, r.claimed, r.status, r.retry_count, r.lease_until "
    "FROM (SELECT * FROM claimed UNION ALL SELECT * FROM current) AS r "
    "JOIN input AS i ON r.tenant = i.tenant AND r.message_id = i.message_id "
      "AND r.handler_type = i.handler_type"};

// mark_processed_batch: kMarkProcessed over a whole batch in one statement. $1..$5 as
// kTryClaimBatch's (each entry with its own token), $6 now (NULL: the server's clock).
// One row (ord) per entry marked. The entries still under their tokens' claims are
// locked in key order first (as kTryClaimBatch's), then changed.
inline constexpr Statement kMarkProcessedBatch{
    "docket_claim_mark_processed_batch",
    "WITH target AS ("
      "SELECT d.tenant, d.message_id, d.handler_type, i.owner, i.claim_id, i.ord "
      "FROM docket_claim_inbox AS d "
      "JOIN unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) "
        "WITH ORDINALITY AS i (tenant, message_id, handler_type, owner, claim_id, ord) "
        "ON d.tenant = i.tenant AND d.message_id = i.message_id "
        "AND d.handler_type = i.handler_type "
      "WHERE d.status = 'processing' AND d.owner = i.owner AND d.claim_id = i.claim_id "
      "ORDER BY d.tenant COLLATE \"C\", d.message_id COLLATE \"C\", "
        "d.handler_type COLLATE \"C\" "
      "FOR UPDATE OF d"
    "), " DOCKET_CLAIM_CLOCK("$6") " "
    "UPDATE docket_claim_inbox AS u "
    "SET status = 'processed', processed_at = clock.ts, updated_at = clock.ts, owner = NULL, "
      "claim_id = NULL, lease_until = NULL, next_attempt_at = NULL "
    "FROM target AS t, clock WHERE u.tenant = t.tenant AND u.message_id = t.message_id "
      "AND u.handler_type = t.handler_type AND u.status = 'processing' AND u.owner = t.owner "
      "AND u.claim_id = t.claim_id "
    "RETURNING t.ord"};

// mark_processed, release, mark_failed: $1..$3 the key, $4, $5 the token, $6 now (NULL:
// the server's clock); one row changed iff the token's claim is the entry's current one
// (its lease ended or not). owner, claim_id and lease_until are set only while
// processing, processed_at once processed; next_attempt_at, the latest failure's retry
// time, is kept through later claims and releases and dropped once processed (as on
// every provider).
inline constexpr Statement kMarkProcessed{
    "docket_claim_mark_processed",
    "WITH " DOCKET_CLAIM_CLOCK("$6") " "
    "UPDATE docket_claim_inbox "
    "SET status = 'processed', processed_at = clock.ts, updated_at = clock.ts, owner = NULL, "
      "claim_id = NULL, lease_until = NULL, next_attempt_at = NULL "
    "FROM clock WHERE " DOCKET_CLAIM_KEY " AND " DOCKET_CLAIM_HELD};

inline constexpr Statement kRelease{
    "docket_claim_release",
    "WITH " DOCKET_CLAIM_CLOCK("$6") " "
    "UPDATE docket_claim_inbox "
    "SET status = 'received', updated_at = clock.ts, owner = NULL, claim_id = NULL, "
      "lease_until = NULL "
    "FROM clock WHERE " DOCKET_CLAIM_KEY " AND " DOCKET_CLAIM_HELD};

// $7 error text, $8 next attempt (the caller's time: failed_due compares it with the
// caller's clock).
inline constexpr Statement kMarkFailed{
    "docket_claim_mark_failed",
    "WITH " DOCKET_CLAIM_CLOCK("$6") " "
    "UPDATE docket_claim_inbox "
    "SET status = 'failed', retry_count = retry_count + 1, last_error = $7, "
      "next_attempt_at = " DOCKET_TS("$8") ", updated_at = clock.ts, owner = NULL, "
      "claim_id = NULL, lease_until = NULL "
    "FROM clock WHERE " DOCKET_CLAIM_KEY " AND " DOCKET_CLAIM_HELD};

// renew: $1..$6 as kRelease's, $7 lease (microseconds). One row, the new lease end
// (microseconds), iff the token's claim is the entry's current one; none otherwise.
inline constexpr Statement kRenew{
    "docket_claim_renew",
    "WITH " DOCKET_CLAIM_CLOCK("$6") " "
    "UPDATE docket_claim_inbox "
    "SET lease_until = " DOCKET_CLAIM_LEASE_END("$7") ", updated_at = clock.ts "
    "FROM clock WHERE " DOCKET_CLAIM_KEY " AND " DOCKET_CLAIM_HELD " "
    "RETURNING " DOCKET_US("lease_until")};

// $1..$3 the key, $4 now (NULL: the server's clock). One row changed iff the entry was
// absent or not processed; a concurrent writer of the same key waits for the first, then
// sees it processed.
inline constexpr Statement kTryMarkProcessed{
    "docket_claim_try_mark_processed",
    "WITH " DOCKET_CLAIM_CLOCK("$4") " "
    "INSERT INTO docket_claim_inbox AS c (tenant, message_id, handler_type, status, "
      "retry_count, received_at, updated_at, processed_at) "
    "SELECT $1, $2, $3, 'processed', 0, clock.ts, clock.ts, clock.ts FROM clock "
    "ON CONFLICT (tenant, message_id, handler_type) DO UPDATE "
    "SET status = 'processed', processed_at = excluded.processed_at, "
      "updated_at = excluded.updated_at, owner = NULL, claim_id = NULL, lease_until = NULL, "
      "next_attempt_at = NULL "
    "WHERE c.status <> 'processed'"};

// retry_now: $1..$3 the key, $4 now (the store's clock, as kFailedDue's $1: failed_due
// compares next_attempt_at with it). One row changed iff the entry is failed: due now,
// its retry count and last error kept.
inline constexpr Statement kRetryNow{
    "docket_claim_retry_now",
    "UPDATE docket_claim_inbox "
    "SET next_attempt_at = " DOCKET_TS("$4") ", updated_at = " DOCKET_TS("$4") " "
    "WHERE " DOCKET_CLAIM_KEY " AND status = 'failed'"};

// $1..$3 the key.
inline constexpr Statement kFind{
    "docket_claim_find",
    "SELECT " DOCKET_CLAIM_COLUMNS " FROM docket_claim_inbox WHERE " DOCKET_CLAIM_KEY};

// $1 now, $2 max retries, $3 limit. Index docket_claim_inbox_failed gives the order.
inline constexpr Statement kFailedDue{
    "docket_claim_failed_due",
    "SELECT " DOCKET_CLAIM_COLUMNS " FROM docket_claim_inbox "
    "WHERE status = 'failed' AND next_attempt_at <= " DOCKET_TS("$1") " AND retry_count < $2 "
    "ORDER BY next_attempt_at, tenant, message_id, handler_type LIMIT $3"};

// $1 now (for failed_due), [$2 tenant]. One row: received, processing, processed,
// failed, oldest pending (microseconds or NULL), failed due. The processed rows, the
// bulk of the table, are counted on their partial index; the rest on the pending one.
#define DOCKET_CLAIM_COUNTS(tenant_filter)                                             \
  "SELECT count(*) FILTER (WHERE status = 'received'), "                               \
    "count(*) FILTER (WHERE status = 'processing'), "                                  \
    "(SELECT count(*) FROM docket_claim_inbox "                                        \
      "WHERE status = 'processed'" tenant_filter "), "                                 \
    "count(*) FILTER (WHERE status = 'failed'), "                                      \
    DOCKET_US("min(received_at)") ", "                                                 \
    "count(*) FILTER (WHERE status = 'failed' AND next_attempt_at <= " DOCKET_TS("$1") ") " \
  "FROM docket_claim_inbox WHERE status <> 'processed'" tenant_filter
inline constexpr Statement kCounts{"docket_claim_counts", DOCKET_CLAIM_COUNTS("")};
inline constexpr Statement kTenantCounts{"docket_claim_tenant_counts",
                                         DOCKET_CLAIM_COUNTS(" AND tenant = $2")};

// $1..$3 the key to start after (('', '', '') for the first page: every stored term is
// non-blank), $4 status or NULL for every status, $5 limit, [$6 tenant]. Key order is
// the primary key's (byte order, COLLATE "C"); the row comparison is its range scan.
#define DOCKET_CLAIM_ENTRIES(tenant_filter)                                            \
  "SELECT " DOCKET_CLAIM_COLUMNS " FROM docket_claim_inbox "                           \
  "WHERE " tenant_filter "(tenant, message_id, handler_type) > ($1, $2, $3) "          \
    "AND ($4::text IS NULL OR status = $4) "                                           \
  "ORDER BY tenant, message_id, handler_type LIMIT $5"
inline constexpr Statement kEntries{"docket_claim_entries", DOCKET_CLAIM_ENTRIES("")};
inline constexpr Statement kTenantEntries{"docket_claim_tenant_entries",
                                          DOCKET_CLAIM_ENTRIES("tenant = $6 AND ")};

// $1 cutoff, $2 limit, [$3 tenant]. Deletes at most $2 processed entries with
// processed_at strictly before the cutoff. SKIP LOCKED: concurrent cleanups take
// disjoint rows and never wait for (or deadlock with) each other; a processed row locked
// at that moment (a duplicate claim attempt holds it for one statement) is left to the
// next cleanup.
#define DOCKET_CLAIM_CLEANUP(tenant_filter)                                            \
  "DELETE FROM docket_claim_inbox WHERE ctid IN ("                                     \
    "SELECT ctid FROM docket_claim_inbox "                                             \
    "WHERE status = 'processed' AND processed_at < " DOCKET_TS("$1") tenant_filter " " \
    "LIMIT $2 FOR UPDATE SKIP LOCKED"                                                  \
  ") AND status = 'processed'"
inline constexpr Statement kCleanup{"docket_claim_cleanup", DOCKET_CLAIM_CLEANUP("")};
inline constexpr Statement kTenantCleanup{"docket_claim_tenant_cleanup",
                                          DOCKET_CLAIM_CLEANUP(" AND tenant = $3")};

// $1 cutoff, [$2 tenant]: what the cleanup would delete.
#define DOCKET_CLAIM_CLEANABLE(tenant_filter)                                          \
  "SELECT count(*) FROM docket_claim_inbox "                                           \
  "WHERE status = 'processed' AND processed_at < " DOCKET_TS("$1") tenant_filter
inline constexpr Statement kCountCleanable{"docket_claim_count_cleanable",
                                           DOCKET_CLAIM_CLEANABLE("")};
inline constexpr Statement kTenantCountCleanable{"docket_claim_tenant_count_cleanable",
                                                 DOCKET_CLAIM_CLEANABLE(" AND tenant = $2")};
// clang-format on

#undef DOCKET_CLAIM_CLEANABLE
#undef DOCKET_CLAIM_CLEANUP
#undef DOCKET_CLAIM_ENTRIES
#undef DOCKET_CLAIM_COUNTS
#undef DOCKET_CLAIM_HELD
#undef DOCKET_CLAIM_LEASE_END
#undef DOCKET_CLAIM_CLOCK
#undef DOCKET_CLAIM_KEY
#undef DOCKET_CLAIM_COLUMNS

}  // namespace docket::postgres::detail::claim_sql

#endif  // DOCKET_PROVIDERS_POSTGRES_CLAIM_SQL_H_
