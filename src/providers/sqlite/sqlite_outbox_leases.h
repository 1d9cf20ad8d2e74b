// The SQLite outbox's relay leases, held as runs of sequences (docket_outbox_leases, outbox
// schema version 3) instead of in the message rows.
//
// A relay's claim leases up to a thousand rows at a time. Written into each row, the
// lease rewrote every claimed row (and its page in the write-ahead log) only to be
// rewritten again by the mark: on the relay bench that was half of the relay's store CPU.
// A claim writes one row per run of sequences instead, usually one for the whole claim.
//
// Invariants (every function runs inside its caller's transaction, under SQLite's write
// lock):
//   - A run [first_sequence, last_sequence] of token T covers exactly the pending rows T
//     leased in that range: no pending or parked row lies inside a run unless its token
//     leased it. A claim therefore cuts its rows into runs wherever a pending or parked
//     row it did not take lies between two it took, and a failed row is cut out of its run.
//   - Runs never overlap: a claim deletes the runs whose lease is over before it selects,
//     and only then may it take their rows; the rest are live and their rows are not
//     candidates. (A run over is kept until the next claim: its relay may still complete
//     its rows, as a row lease kept its token until another relay took the row.)
//   - Rows staged later cannot fall inside a run: sequences only grow (AUTOINCREMENT),
//     and a claim runs under the write lock, after every committed staging.
//
// Thread-safety: uses only the connection passed in, which its caller holds.
#ifndef DOCKET_PROVIDERS_SQLITE_SQLITE_OUTBOX_LEASES_H_
#define DOCKET_PROVIDERS_SQLITE_SQLITE_OUTBOX_LEASES_H_

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "docket/outbox/outbox_message.h"
#include "providers/sqlite/sqlite_connection.h"

namespace docket::sqlite::detail {

// SQL that is true when the docket_outbox row in scope (unqualified) lies inside a run of
// any token; for candidates and cancel. Runs are disjoint, so the run that could hold a
// sequence is the one starting last at or before it: one index seek.
inline constexpr std::string_view kRowLeased =
    "coalesce((SELECT l.last_sequence >= docket_outbox.sequence FROM docket_outbox_leases AS l "
    "WHERE l.first_sequence <= docket_outbox.sequence ORDER BY l.first_sequence DESC LIMIT 1), 0)";

// SQL that is true when the docket_outbox row in scope (unqualified columns) lies inside a
// run of the token bound as ?1.
inline constexpr std::string_view kRowLeasedByToken =
    "EXISTS (SELECT 1 FROM docket_outbox_leases AS l WHERE l.token = ?1 AND "
    "l.first_sequence <= docket_outbox.sequence AND l.last_sequence >= docket_outbox.sequence)";

// Leases to `token` until `lease_until_us` up to `limit` pending rows due at `now_us`,
// lowest sequence first, a key's earliest open row only (docket_outbox_key_held), and
// returns them in sequence order. Deletes the runs over at `now_us` first.
std::vector<OutboxRecord> lease_due_rows(Connection& connection, std::string_view token,
                                         std::int64_t now_us, std::int64_t lease_until_us,
                                         std::size_t limit);

// Deletes `token`'s runs that no longer cover a pending row (every row in them published,
// failed or cancelled): called after rows of a claim are marked.
void release_finished_runs(Connection& connection, std::string_view token);

// Cuts `sequence` out of `token`'s run holding it (the run shrinks, splits in two or
// goes): called when the row fails, so that its retry is a candidate once due.
void cut_from_run(Connection& connection, std::string_view token, std::int64_t sequence);

}  // namespace docket::sqlite::detail

#endif  // DOCKET_PROVIDERS_SQLITE_SQLITE_OUTBOX_LEASES_H_
