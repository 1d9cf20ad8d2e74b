#include "sqlite_raw.h"

#include <sqlite3.h>

#include <exception>

#include "docket/core/error.h"

namespace docket::bench {

RawSqlite::RawSqlite(const std::string& path, std::chrono::milliseconds busy_timeout)
    : path_(path) {
  const int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX;
  const int rc = sqlite3_open_v2(path_.c_str(), &db_, flags, nullptr);
  if (rc != SQLITE_OK) {
    const std::string reason = db_ != nullptr ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
    sqlite3_close_v2(db_);
    throw InfrastructureError("raw SQLite baseline could not open '" + path_ + "': " + reason +
                              "; check that the directory exists and is writable");
  }
  sqlite3_extended_result_codes(db_, 1);
  sqlite3_busy_timeout(db_, static_cast<int>(busy_timeout.count()));
  try {
    exec_script("PRAGMA journal_mode=WAL");
    exec_script("PRAGMA synchronous=FULL");
  } catch (...) {
    sqlite3_close_v2(db_);
    throw;
  }
}

RawSqlite::~RawSqlite() {
  sqlite3_close_v2(db_);
}

void RawSqlite::exec_script(const std::string& sql) {
  const int rc = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, nullptr);
  if (rc != SQLITE_OK) {
    fail(rc, "to run `" + sql + "`");
  }
}

std::int64_t RawSqlite::count(const std::string& sql, std::string_view param) {
  sqlite3_stmt* stmt = nullptr;
  int rc = sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt, nullptr);
  if (rc != SQLITE_OK) {
    fail(rc, "to prepare `" + sql + "`");
  }
  sqlite3_bind_text64(stmt, 1, param.data(), param.size(), SQLITE_STATIC, SQLITE_UTF8);
  rc = sqlite3_step(stmt);
  const std::int64_t result = rc == SQLITE_ROW ? sqlite3_column_int64(stmt, 0) : -1;
  sqlite3_finalize(stmt);
  if (rc != SQLITE_ROW) {
    fail(rc, "to run `" + sql + "`");
  }
  return result;
}

void RawSqlite::rollback_and_rethrow() {
  if (sqlite3_get_autocommit(db_) == 0) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
  }
  std::rethrow_exception(std::current_exception());
}

void RawSqlite::fail(int rc, std::string_view doing) const {
  throw InfrastructureError("raw SQLite baseline on '" + path_ + "' failed " + std::string(doing) +
                            ": " + sqlite3_errstr(rc) + " (" + std::to_string(rc) +
                            "): " + sqlite3_errmsg(db_));
}

RawStatement::RawStatement(RawSqlite& connection, std::string sql)
    : connection_(connection), sql_(std::move(sql)) {
  const int rc =
      sqlite3_prepare_v3(connection_.native(), sql_.data(), static_cast<int>(sql_.size()),
                         SQLITE_PREPARE_PERSISTENT, &stmt_, nullptr);
  if (rc != SQLITE_OK) {
    sqlite3_finalize(stmt_);
    connection_.fail(rc, "to prepare `" + sql_ + "`");
  }
}

RawStatement::~RawStatement() {
  sqlite3_finalize(stmt_);
}

void RawStatement::bind_text(int index, std::string_view text) {
  sqlite3_bind_text64(stmt_, index, text.data(), text.size(), SQLITE_STATIC, SQLITE_UTF8);
}

void RawStatement::bind_int64(int index, std::int64_t value) {
  sqlite3_bind_int64(stmt_, index, value);
}

void RawStatement::bind_null(int index) {
  sqlite3_bind_null(stmt_, index);
}

std::int64_t RawStatement::run() {
  const int rc = sqlite3_step(stmt_);
  sqlite3_reset(stmt_);
  if (rc != SQLITE_DONE) {
    connection_.fail(rc, "to run `" + sql_ + "`");
  }
  return sqlite3_changes64(connection_.native());
}

bool RawStatement::step() {
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) {
    return true;
  }
  if (rc != SQLITE_DONE) {
    sqlite3_reset(stmt_);
    connection_.fail(rc, "to run `" + sql_ + "`");
  }
  return false;
}

void RawStatement::reset() {
  sqlite3_reset(stmt_);
}

int RawStatement::column_type(int column) const {
  return sqlite3_column_type(stmt_, column);
}

bool RawStatement::column_is_null(int column) const {
  return sqlite3_column_type(stmt_, column) == SQLITE_NULL;
}

std::int64_t RawStatement::column_int64(int column) const {
  return sqlite3_column_int64(stmt_, column);
}

std::string_view RawStatement::column_bytes(int column) const {
  const void* data = sqlite3_column_blob(stmt_, column);
  const int size = sqlite3_column_bytes(stmt_, column);
  return data == nullptr
             ? std::string_view()
             : std::string_view(static_cast<const char*>(data), static_cast<std::size_t>(size));
}

int RawStatement::column_count() const {
  return sqlite3_column_count(stmt_);
}

}  // namespace docket::bench
