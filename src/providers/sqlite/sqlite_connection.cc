#include "providers/sqlite/sqlite_connection.h"

#include <sqlite3.h>

#include "docket/core/error.h"
#include "providers/sqlite/sqlite_error.h"

namespace docket::sqlite::detail {

Connection::Connection(const std::string& path, std::chrono::milliseconds busy_timeout)
    : path_(path) {
  const int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX;
  const int rc = sqlite3_open_v2(path_.c_str(), &db_, flags, nullptr);
  if (rc != SQLITE_OK) {
    const std::string reason = db_ != nullptr ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
    sqlite3_close_v2(db_);
    throw InfrastructureError("SQLite could not open '" + path_ + "': " + reason +
                              "; check that the directory exists and is writable");
  }
  sqlite3_extended_result_codes(db_, 1);
  sqlite3_busy_timeout(db_, static_cast<int>(busy_timeout.count()));
  try {
    if (path_ != ":memory:") {
      // WAL lets readers (filter_unprocessed) run beside the writer; FULL makes every
      // commit durable when it returns.
      query("PRAGMA journal_mode=WAL");
    }
    exec_script("PRAGMA synchronous=FULL");
  } catch (...) {
    statements_.clear();
    sqlite3_close_v2(db_);
    throw;
  }
}

Connection::~Connection() {
  statements_.clear();  // finalize before closing
  sqlite3_close_v2(db_);
}

std::int64_t Connection::exec(std::string_view sql, const std::vector<Value>& params) {
  statement(sql).run(params, nullptr);
  return sqlite3_changes64(db_);
}

std::vector<Row> Connection::query(std::string_view sql, const std::vector<Value>& params) {
  std::vector<Row> rows;
  statement(sql).run(params, &rows);
  return rows;
}

std::int64_t Connection::exec_views(std::string_view sql, std::span<const ParamView> params) {
  statement(sql).run(params, nullptr);
  return sqlite3_changes64(db_);
}

std::vector<Row> Connection::query_views(std::string_view sql, std::span<const ParamView> params) {
  std::vector<Row> rows;
  statement(sql).run(params, &rows);
  return rows;
}

void Connection::exec_script(const std::string& sql) {
  const int rc = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, nullptr);
  if (rc != SQLITE_OK) {
    throw_sqlite_error(db_, rc, "to run `" + sql + "` on '" + path_ + "'");
  }
}

std::int64_t Connection::changes() const noexcept {
  return sqlite3_changes64(db_);
}

bool Connection::in_transaction() const noexcept {
  return sqlite3_get_autocommit(db_) == 0;
}

Statement& Connection::statement(std::string_view sql) {
  auto it = statements_.find(sql);
  if (it == statements_.end()) {
    it = statements_.emplace(std::string(sql), std::make_unique<Statement>(db_, sql)).first;
  }
  return *it->second;
}

}  // namespace docket::sqlite::detail
