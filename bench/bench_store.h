// Which database a benchmark runs on, from the store URL the user passes, and where
// its raw baseline runs beside it.
//
// The raw baseline must run the same statements on tables of the same size as
// docket's, so each side gets its own database or schema of the same shape, and both
// grow in step, run after run:
//   sqlite:///path/run.db    docket on /path/run.db, raw on /path/run.db.raw;
//   postgresql://... (or postgres://...)  one server, a schema per side:
//                            docket in kPostgresDocketSchema, raw in kPostgresRawSchema,
//                            selected with options=-csearch_path=<schema> on the URL.
// The user's URL must not set `options` itself (the bench sets the search_path).
//
// Benchmarks measure durable commits, so in-memory stores (memory:, sqlite::memory:)
// are refused.
//
// Thread-safety: pure functions, and create_bench_schemas on a connection of its own.
#ifndef DOCKET_BENCH_BENCH_STORE_H_
#define DOCKET_BENCH_BENCH_STORE_H_

#include <string>
#include <string_view>

namespace docket::bench {

enum class BenchProvider { kSqlite, kPostgres };

inline constexpr std::string_view kPostgresDocketSchema = "docket_bench_docket";
inline constexpr std::string_view kPostgresRawSchema = "docket_bench_raw";

struct BenchStore {
  std::string url;  // as given
  BenchProvider provider = BenchProvider::kSqlite;
  std::string docket_url;  // what docket's side opens (open_inbox_store)
  // The database each side's set-up and checks connect to, bypassing docket: a file
  // path (SQLite) or a libpq URL with the side's search_path (PostgreSQL).
  std::string docket_db;
  std::string raw_db;  // also where the raw baseline runs
  // PostgreSQL: each side's schema (empty on SQLite).
  std::string docket_schema;
  std::string raw_schema;
};

// Throws ConfigurationError for a URL a benchmark cannot run on, saying which it can.
BenchStore parse_bench_store(std::string_view url);
// The same with other schemas than kPostgresDocketSchema and kPostgresRawSchema on
// PostgreSQL (e.g. a run's own, dropped afterwards).
BenchStore parse_bench_store(std::string_view url, std::string_view docket_schema,
                             std::string_view raw_schema);

// "docket-bench-<8 hex digits>", new every call: names a run's rows (consumer id,
// aggregate types, message source) so that a run counts only its own in a database
// that earlier runs also wrote to.
std::string new_run_id();

// On PostgreSQL, creates both sides' schemas when missing (before docket's store
// migrates into its own); nothing on SQLite. Throws InfrastructureError.
void create_bench_schemas(const BenchStore& store);

}  // namespace docket::bench

#endif  // DOCKET_BENCH_BENCH_STORE_H_
