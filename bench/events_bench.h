// `docket bench events`: docket's event store against the raw limit of the same work,
// in one run.
//
// Append cases: `appends` appends of K events each (K from events_per_append, 1 and
// 10 by default), to one stream and to `streams` streams (append i goes to stream
// i mod streams), each expecting the version it last saw; through docket's EventStore
// and through the same SQL issued directly (the provider's raw baseline, e.g. RawEventsSqlite) on a
// twin database of the same schema. Load case: `loads` loads of whole streams of
// `stream_length` events. Both sides alternate in short slices (run_side_by_side).
// Append rates are appends per second; the load rate is events per second.
//
// Afterwards both databases are checked: every append was answered (ok + conflicts =
// appends), the stored events are those of the successful appends, every stream's
// versions run 0, 1, 2, ... without gaps, docket's and the raw side's event counts
// agree (when their conflicts do; with one thread there are none), and every load
// returned the whole stream. A failed check is listed in problems.
//
// Thread-safety: run_events_bench() may be called from one thread at a time per store.
#ifndef DOCKET_BENCH_EVENTS_BENCH_H_
#define DOCKET_BENCH_EVENTS_BENCH_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bench_store.h"
#include "event_workload.h"
#include "side_by_side.h"

namespace docket::bench {

struct EventsBenchOptions {
  static constexpr std::size_t kSliceItems = 100;  // appends or loads per slice
  static constexpr std::size_t kMaxLoadStreams = 100;

  std::string store_url;
  std::size_t appends = 2'000;                        // per append case
  std::vector<std::size_t> events_per_append{1, 10};  // one pair of cases each
  std::size_t streams = 1'000;                        // the "many streams" cases
  std::size_t threads = 1;
  std::size_t loads = 2'000;
  std::size_t stream_length = 100;  // events per loaded stream
};

struct AppendSideReport {
  AppendCounts counts;
  StoredStreams stored;
  double seconds = 0;
  double rate = 0;  // appends per second
};

struct AppendCaseReport {
  std::string name;  // "one-1", "many-10": one stream or many, events per append
  std::size_t streams = 0;
  std::size_t events_per_append = 0;
  std::size_t appends = 0;
  std::array<AppendSideReport, 2> sides;  // indexed by Side
  SideBySideTimings timings;
  // Round trips an append made, per Side; nullopt where the provider makes none.
  std::optional<std::array<double, 2>> round_trips_per_append;
};

struct LoadCaseReport {
  std::size_t streams = 0;
  std::size_t stream_length = 0;
  std::size_t loads = 0;
  std::array<std::uint64_t, 2> events{};  // loaded, per Side
  SideBySideTimings timings;

  double rate(Side side) const noexcept;  // events per second
};

struct EventsBenchReport {
  EventsBenchOptions options;
  BenchStore store;
  std::string run_id;  // in every aggregate type of the run
  std::vector<AppendCaseReport> cases;
  LoadCaseReport load;
  std::vector<std::string> problems;

  bool ok() const noexcept { return problems.empty(); }
  // Over every append case: appends (answered) and events appended by `side`,
  // conflicts, and appends per second (all appends over all their seconds).
  std::uint64_t appends(Side side) const noexcept;
  std::uint64_t events(Side side) const noexcept;
  std::uint64_t conflicts(Side side) const noexcept;
  double rate(Side side) const noexcept;
};

// Throws InvalidInputError / ConfigurationError for unusable options, and
// InfrastructureError or whatever docket threw when a side fails outright.
EventsBenchReport run_events_bench(const EventsBenchOptions& options);

// The checks above, appended to report.problems (events_report.cc).
void check_events_report(EventsBenchReport& report);

}  // namespace docket::bench

#endif  // DOCKET_BENCH_EVENTS_BENCH_H_
