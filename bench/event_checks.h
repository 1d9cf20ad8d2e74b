// What `docket bench events` checks after a run, on each side's database, bypassing
// docket: the streams of one aggregate type, their events, and whether each stream's
// versions are 0, 1, 2, ... without gaps.
//
// Thread-safety: each call opens its own connection.
#ifndef DOCKET_BENCH_EVENT_CHECKS_H_
#define DOCKET_BENCH_EVENT_CHECKS_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "bench_store.h"

namespace docket::bench {

struct StoredStreams {
  std::int64_t streams = 0;
  std::int64_t events = 0;
  // Streams whose versions are not exactly 0 .. events - 1 (the unique stream key
  // rules out a version twice, so a count that does not match is a gap).
  std::int64_t broken_streams = 0;
};

// The bench tenant's streams of `aggregate_type` in `db` (a SQLite file or a libpq
// URL, as BenchStore names them).
StoredStreams stored_streams(BenchProvider provider, const std::string& db,
                             std::string_view aggregate_type);

}  // namespace docket::bench

#endif  // DOCKET_BENCH_EVENT_CHECKS_H_
