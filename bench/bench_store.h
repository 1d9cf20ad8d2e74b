// Where a benchmark runs: the store URL the user passes, its provider's bench side
// (bench_provider.h), and the two databases of the run, docket's and the raw
// baseline's.
//
// The raw baseline must run the same statements on tables of the same size as
// docket's, so each side gets its own database of the same shape, and both grow in
// step, run after run. How depends on the provider:
//   sqlite:///path/run.db    docket on /path/run.db, raw on /path/run.db.raw;
//   postgresql://... (or postgres://...)  one server, a schema per side: docket in
//                            kDocketSideName, raw in kRawSideName, selected with
//                            options=-csearch_path=<schema> on the URL (which must not
//                            set `options` itself).
//
// Benchmarks measure durable commits, so in-memory stores (memory:, sqlite::memory:)
// are refused.
//
// Thread-safety: plain values and pure functions.
#ifndef DOCKET_BENCH_BENCH_STORE_H_
#define DOCKET_BENCH_BENCH_STORE_H_

#include <string>
#include <string_view>

namespace docket::bench {

class ProviderBench;

// The sides' namespaces of a run that names none of its own.
inline constexpr std::string_view kDocketSideName = "docket_bench_docket";
inline constexpr std::string_view kRawSideName = "docket_bench_raw";

struct BenchStore {
  std::string url;                          // as given
  const ProviderBench* provider = nullptr;  // the URL's provider's bench side
  // Each side's database as the provider's bench side names it (a file path on
  // SQLite, a libpq URL with the side's search_path on PostgreSQL): docket's store
  // opens on docket_db and the raw baseline runs on raw_db; the checks read both.
  std::string docket_db;
  std::string raw_db;
  // Each side's namespace where the provider has them (PostgreSQL schemas); empty
  // elsewhere.
  std::string docket_schema;
  std::string raw_schema;
};

// "docket-bench-<8 hex digits>", new every call: names a run's rows (consumer id,
// aggregate types, message source) so that a run counts only its own in a database
// that earlier runs also wrote to.
std::string new_run_id();

}  // namespace docket::bench

#endif  // DOCKET_BENCH_BENCH_STORE_H_
