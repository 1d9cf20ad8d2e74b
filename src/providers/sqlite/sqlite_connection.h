// RAII for one SQLite connection (sqlite3*), configured for the inbox: WAL,
// synchronous=FULL, a busy timeout, extended result codes. Prepared statements are
// cached per connection by their SQL text.
//
// Thread-safety: one user at a time (the pool hands it to one caller).
#ifndef DOCKET_PROVIDERS_SQLITE_SQLITE_CONNECTION_H_
#define DOCKET_PROVIDERS_SQLITE_SQLITE_CONNECTION_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "docket/sqlite/transaction.h"
#include "providers/sqlite/sqlite_statement.h"

struct sqlite3;

namespace docket::sqlite::detail {

class Connection {
 public:
  // Opens (creating when missing) `path`; ":memory:" opens a private in-memory
  // database. Throws InfrastructureError naming the path.
  Connection(const std::string& path, std::chrono::milliseconds busy_timeout);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // One statement, cached; returns the rows it changed.
  std::int64_t exec(std::string_view sql, const std::vector<Value>& params = {});
  std::vector<Row> query(std::string_view sql, const std::vector<Value>& params = {});
  // The same with parameters bound as views, copying nothing: the store's per-message
  // statements (BEGIN, the dedup insert, savepoints, COMMIT) go through here, so each
  // is prepared once per connection.
  std::int64_t exec_views(std::string_view sql, std::span<const ParamView> params = {});
  std::vector<Row> query_views(std::string_view sql, std::span<const ParamView> params);
  // The same calling `visit(const RowView&)` for each row as SQLite steps to it, with
  // no Row built: for reads that turn rows straight into their own values.
  template <class Visit>
  void for_each_row(std::string_view sql, std::span<const ParamView> params, Visit&& visit) {
    statement(sql).for_each_row(params, std::forward<Visit>(visit));
  }

  // Statements without parameters, not cached (pragmas, schema scripts), possibly
  // several separated by semicolons.
  void exec_script(const std::string& sql);

  // True while a transaction is open on this connection.
  bool in_transaction() const noexcept;

  // The cached statement for `sql`, prepared on first use; valid as long as the
  // connection. For callers that run one statement many times and keep the reference.
  Statement& statement(std::string_view sql);
  // Rows changed by the last INSERT, UPDATE or DELETE.
  std::int64_t changes() const noexcept;

  sqlite3* native() const noexcept { return db_; }

  // The pool that opened this connection (nullptr outside a pool): tells whether a
  // caller's transaction is on a given store's database when the path cannot
  // (":memory:").
  const void* owner() const noexcept { return owner_; }
  void set_owner(const void* owner) noexcept { owner_ = owner; }
  const std::string& path() const noexcept { return path_; }

 private:
  std::string path_;
  sqlite3* db_ = nullptr;
  const void* owner_ = nullptr;
  // Looked up by string_view without building a key string (transparent hash).
  struct SqlHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view sql) const noexcept {
      return std::hash<std::string_view>{}(sql);
    }
  };
  std::unordered_map<std::string, std::unique_ptr<Statement>, SqlHash, std::equal_to<>> statements_;
};

}  // namespace docket::sqlite::detail

#endif  // DOCKET_PROVIDERS_SQLITE_SQLITE_CONNECTION_H_
