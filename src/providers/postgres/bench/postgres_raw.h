// libpq with nothing of docket in between: the raw limit that benchmarks compare
// docket's PostgreSQL provider against. A connection is opened as docket's provider
// opens its own (src/providers/postgres/postgres_connection.cc: client_encoding UTF8), and
// statements are prepared once per connection (PQprepare) and run with
// PQexecPrepared with text results and parameters in binary format, as docket binds
// them (src/providers/postgres/postgres_exec.cc), as a hand-written lower bound would.
//
// Thread-safety: a connection belongs to one thread at a time.
#ifndef DOCKET_PROVIDERS_POSTGRES_BENCH_RAW_POSTGRES_H_
#define DOCKET_PROVIDERS_POSTGRES_BENCH_RAW_POSTGRES_H_

#include <libpq-fe.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace docket::bench {

// One bound parameter: libpq's value, length and format.
struct RawPgParam {
  const char* value = nullptr;  // nullptr: NULL
  int length = 0;
  int format = 0;  // 0 text, 1 binary
};

// Owns one PGresult.
struct RawPgClear {
  void operator()(PGresult* result) const noexcept { PQclear(result); }
};
using RawPgResult = std::unique_ptr<PGresult, RawPgClear>;

class RawPostgres {
 public:
  // Whether the connection's round trips count in round_trips().
  enum class Counting { kCounted, kUncounted };

  // `url`: a libpq connection URL. Throws InfrastructureError when it cannot connect.
  // An uncounted connection's round trips are left out of round_trips(): a bench that
  // counts them itself (the claim bench's effects) opens one.
  explicit RawPostgres(const std::string& url, Counting counting = Counting::kCounted);

  PGconn* native() const noexcept { return conn_.get(); }

  // Inside a catch block: rolls back the open transaction, if any, then rethrows the
  // exception being handled.
  [[noreturn]] void rollback_and_rethrow();

  // Runs statements without parameters through PQexec (set-up and checks only, and
  // the ROLLBACK after a failure; never in a measured loop).
  void exec_script(const std::string& sql);
  // The same for schema set-up (CREATE ... IF NOT EXISTS, DROP ... IF EXISTS), in one
  // transaction holding the bench's advisory lock: PostgreSQL's IF NOT EXISTS is no
  // guard against a concurrent creator (the loser fails on a catalog unique index),
  // and two benches may set up one server at once.
  void exec_ddl(const std::string& sql);

  // The single integer a `SELECT count(*) ... WHERE x = $1` returns for `param`.
  std::int64_t count(const std::string& sql, std::string_view param);

  // Prepares `sql` as the statement `name` with parameter types `types`.
  void prepare(const std::string& name, const std::string& sql, std::span<const Oid> types);
  // Runs the prepared statement `name` (it must return no rows); returns the rows it
  // changed. Throws InfrastructureError with PostgreSQL's message on failure.
  std::int64_t run(const char* name, std::span<const RawPgParam> params = {});
  // Runs the prepared statement `name` and returns its rows, in text format (0) or,
  // as docket reads its hot rows, binary (1). Throws InfrastructureError with
  // PostgreSQL's message on failure.
  RawPgResult query(const char* name, std::span<const RawPgParam> params = {},
                    int result_format = 0);
  // The same, returning a failed result instead of throwing (the caller reads its
  // SQLSTATE, e.g. a unique violation it expects as an outcome).
  RawPgResult try_query(const char* name, std::span<const RawPgParam> params = {},
                        int result_format = 0);
  // Throws InfrastructureError with the server's message for a failed `result`.
  [[noreturn]] void fail(RawPgResult result, std::string_view doing) const;

  // Round trips every RawPostgres of this process has made (prepares and statements;
  // the set-up's scripts too, which run outside measured spans).
  static std::uint64_t round_trips() noexcept {
    return round_trip_counter_.load(std::memory_order_relaxed);
  }

 private:
  struct Finish {
    void operator()(PGconn* conn) const noexcept { PQfinish(conn); }
  };

  std::string url_;
  Counting counting_;
  std::unique_ptr<PGconn, Finish> conn_;
  void count_round_trip() const noexcept {
    if (counting_ == Counting::kCounted) {
      round_trip_counter_.fetch_add(1, std::memory_order_relaxed);
    }
  }
  static inline std::atomic<std::uint64_t> round_trip_counter_{0};

  // libpq's parameter arrays, kept between calls so that a statement allocates nothing.
  std::vector<const char*> values_;
  std::vector<int> lengths_;
  std::vector<int> formats_;
};

}  // namespace docket::bench

#endif  // DOCKET_PROVIDERS_POSTGRES_BENCH_RAW_POSTGRES_H_
