// Which database a benchmark runs on, from the store URL the user passes, and where
// its raw baseline runs beside it.
//
// docket's side uses the URL as given (open_inbox_store). The raw baseline must run
// the same statements on a table of the same size, so it gets its own database next
// to docket's: for sqlite:///path/run.db that is /path/run.db.raw, migrated to the
// same schema. Both files grow in step, run after run.
//
// Benchmarks measure durable commits, so in-memory stores (memory:, sqlite::memory:)
// are refused.
//
// Thread-safety: pure functions.
#ifndef DOCKET_BENCH_BENCH_STORE_H_
#define DOCKET_BENCH_BENCH_STORE_H_

#include <string>
#include <string_view>

namespace docket::bench {

enum class BenchProvider { kSqlite };

struct BenchStore {
  std::string url;  // as given; docket's side opens it
  BenchProvider provider = BenchProvider::kSqlite;
  std::string sqlite_path;      // docket's database file
  std::string raw_sqlite_path;  // the raw baseline's database file
};

// Throws ConfigurationError for a URL a benchmark cannot run on, saying which it can.
BenchStore parse_bench_store(std::string_view url);

}  // namespace docket::bench

#endif  // DOCKET_BENCH_BENCH_STORE_H_
