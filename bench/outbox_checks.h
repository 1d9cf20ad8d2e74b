// What `docket bench outbox` checks after a run, on each side's database (read by the
// provider's bench side, bypassing docket) against what that side's relays published:
// every message the run staged was published at least once and marked done, and
// nothing else was published.
//
// Thread-safety: each call opens its own connection.
#ifndef DOCKET_BENCH_OUTBOX_CHECKS_H_
#define DOCKET_BENCH_OUTBOX_CHECKS_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "bench_provider.h"
#include "outbox_workload.h"

namespace docket::bench {

struct OutboxSideCheck {
  std::int64_t rows = 0;          // the run's rows (message_source = run id)
  std::int64_t done = 0;          // of which marked done
  std::uint64_t published = 0;    // publishes, duplicates included
  std::uint64_t distinct = 0;     // distinct ids published
  std::uint64_t unpublished = 0;  // rows of the run whose id was never published
  std::uint64_t unknown = 0;      // ids published that are not rows of the run
};

// The run's rows in the side database `db` beside what `log` recorded.
OutboxSideCheck check_outbox_side(const OutboxBench& provider, const std::string& db,
                                  std::string_view run_id, const PublishLog& log);

// Before a run: throws ConfigurationError when the side database `db` holds pending
// outbox rows (of an interrupted run, or of another producer), which the run's relays
// would publish too.
void refuse_pending_rows(const OutboxBench& provider, const std::string& db);

}  // namespace docket::bench

#endif  // DOCKET_BENCH_OUTBOX_CHECKS_H_
