// The SQLite C API with nothing of docket in between: the raw limit that benchmarks
// compare docket against. A connection is configured exactly as docket's SQLite
// provider configures its own (src/providers/sqlite/sqlite_connection.cc): opened
// read-write-create with SQLITE_OPEN_NOMUTEX, extended result codes, the same busy
// timeout, journal_mode=WAL and synchronous=FULL, so both sides pay the same fsyncs.
// Statements are prepared once with SQLITE_PREPARE_PERSISTENT and reset after each
// run, as the hand-written lower bound of the same work would do.
//
// Thread-safety: a connection and its statements belong to one thread at a time.
#ifndef DOCKET_PROVIDERS_SQLITE_BENCH_RAW_SQLITE_H_
#define DOCKET_PROVIDERS_SQLITE_BENCH_RAW_SQLITE_H_

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace docket::bench {

// How long a raw side's statement waits for another connection's write lock, as
// docket's SQLite provider waits by default.
inline constexpr std::chrono::milliseconds kRawBusyTimeout{30'000};

class RawSqlite {
 public:
  // Throws InfrastructureError naming the path when it cannot be opened or configured.
  RawSqlite(const std::string& path, std::chrono::milliseconds busy_timeout);
  ~RawSqlite();
  RawSqlite(const RawSqlite&) = delete;
  RawSqlite& operator=(const RawSqlite&) = delete;

  sqlite3* native() const noexcept { return db_; }
  const std::string& path() const noexcept { return path_; }

  // Runs statements without parameters through sqlite3_exec (set-up and checks only,
  // never in a measured loop).
  void exec_script(const std::string& sql);

  // The single integer a `SELECT count(*) ... WHERE x = ?1` returns for `param`.
  std::int64_t count(const std::string& sql, std::string_view param);

  // Inside a catch block: rolls back the open transaction, if any, then rethrows the
  // exception being handled.
  [[noreturn]] void rollback_and_rethrow();

  // Throws InfrastructureError with SQLite's code and message and `doing`.
  [[noreturn]] void fail(int rc, std::string_view doing) const;

 private:
  std::string path_;
  sqlite3* db_ = nullptr;
};

class RawStatement {
 public:
  RawStatement(RawSqlite& connection, std::string sql);
  ~RawStatement();
  RawStatement(const RawStatement&) = delete;
  RawStatement& operator=(const RawStatement&) = delete;

  // Bind ?index (1-based). Text is bound SQLITE_STATIC: it must stay valid until run().
  void bind_text(int index, std::string_view text);
  void bind_int64(int index, std::int64_t value);
  void bind_null(int index);

  // Steps the statement to completion (it must return no rows), resets it, and
  // returns sqlite3_changes64. Throws InfrastructureError on failure.
  std::int64_t run();

  // For statements that return rows: steps once; true when a row is there to read
  // with the column_* accessors, false when done. Throws InfrastructureError (after
  // resetting) on failure. Call reset() after the last row.
  bool step();
  void reset();
  // SQLITE_INTEGER, SQLITE_TEXT, SQLITE_BLOB, SQLITE_NULL, ... of the current row.
  int column_type(int column) const;
  bool column_is_null(int column) const;
  std::int64_t column_int64(int column) const;
  // Text or blob bytes of the current row, valid until the next step() or reset().
  std::string_view column_bytes(int column) const;
  int column_count() const;

 private:
  RawSqlite& connection_;
  std::string sql_;
  sqlite3_stmt* stmt_ = nullptr;
};

}  // namespace docket::bench

#endif  // DOCKET_PROVIDERS_SQLITE_BENCH_RAW_SQLITE_H_
