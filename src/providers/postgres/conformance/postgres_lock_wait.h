// Test code: whether a concurrent PostgreSQL session is queued behind a transaction, for
// the race tests that must know a second writer waits before letting the first go on.
//
// Thread-safety: uses `tx`, which belongs to the calling thread.
#ifndef DOCKET_PROVIDERS_POSTGRES_CONFORMANCE_LOCK_WAIT_H_
#define DOCKET_PROVIDERS_POSTGRES_CONFORMANCE_LOCK_WAIT_H_

#include <chrono>
#include <cstdint>
#include <variant>

#include "docket/postgres/transaction.h"

namespace docket::postgres::conformance {

// Whether a backend waits on a lock `tx`'s transaction holds, polled until `deadline`.
inline bool another_session_waits_on(Transaction& tx, std::chrono::seconds deadline) {
  const auto until = std::chrono::steady_clock::now() + deadline;
  while (std::chrono::steady_clock::now() < until) {
    // pg_locks is read live (pg_stat_activity would be a snapshot per transaction).
    const auto rows = tx.query(
        "SELECT count(*) FROM pg_locks WHERE NOT granted AND "
        "pg_backend_pid() = ANY(pg_blocking_pids(pid))");
    if (std::get<std::int64_t>(rows.at(0).at(0)) > 0) {
      return true;
    }
  }
  return false;
}

}  // namespace docket::postgres::conformance

#endif  // DOCKET_PROVIDERS_POSTGRES_CONFORMANCE_LOCK_WAIT_H_
