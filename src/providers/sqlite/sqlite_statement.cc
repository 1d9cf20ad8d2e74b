#include "providers/sqlite/sqlite_statement.h"

#include <sqlite3.h>

#include <type_traits>

#include "providers/sqlite/sqlite_error.h"

namespace docket::sqlite::detail {

bool RowView::is_null(int column) const noexcept {
  return sqlite3_column_type(stmt_, column) == SQLITE_NULL;
}

std::int64_t RowView::int64(int column) const noexcept {
  return sqlite3_column_int64(stmt_, column);
}

std::string_view RowView::bytes(int column) const noexcept {
  // The pointer first, then the size: sqlite3_column_bytes after sqlite3_column_blob
  // measures the value the pointer points to. NULL and empty values have no pointer,
  // so a NULL column costs one call.
  const auto* data = static_cast<const char*>(sqlite3_column_blob(stmt_, column));
  if (data == nullptr) {
    return {};
  }
  return {data, static_cast<std::size_t>(sqlite3_column_bytes(stmt_, column))};
}

Statement::Resetter::~Resetter() {
  sqlite3_reset(stmt);
  sqlite3_clear_bindings(stmt);
}

Statement::Statement(sqlite3* db, std::string_view sql) : db_(db), sql_(sql) {
  const int rc = sqlite3_prepare_v3(db_, sql_.data(), static_cast<int>(sql_.size()),
                                    SQLITE_PREPARE_PERSISTENT, &stmt_, nullptr);
  if (rc != SQLITE_OK) {
    sqlite3_finalize(stmt_);
    throw_sqlite_error(db_, rc, "to prepare `" + sql_ + "`");
  }
}

Statement::~Statement() {
  sqlite3_finalize(stmt_);
}

void Statement::run(const std::vector<Value>& params, std::vector<Row>* rows) {
  run_with(params, rows);
}

void Statement::run(std::span<const ParamView> params, std::vector<Row>* rows) {
  run_with(params, rows);
}

template <class Params>
void Statement::run_with(const Params& params, std::vector<Row>* rows) {
  const Resetter resetter(stmt_);
  bind_all(params);
  while (step()) {
    if (rows != nullptr) {
      rows->push_back(read_row());
    }
  }
}

template <class Params>
void Statement::bind_each(const Params& params) {
  for (std::size_t i = 0; i < params.size(); ++i) {
    bind(static_cast<int>(i) + 1, params[i]);
  }
}

void Statement::bind_all(const std::vector<Value>& params) {
  bind_each(params);
}

void Statement::bind_all(std::span<const ParamView> params) {
  bind_each(params);
}

bool Statement::step() {
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) {
    return true;
  }
  if (rc == SQLITE_DONE) {
    return false;
  }
  // Name the database too: BEGIN and COMMIT run here, and their failures (a busy
  // timeout, a full disk) are about the file, not the statement.
  const char* file = sqlite3_db_filename(db_, "main");
  throw_sqlite_error(
      db_, rc,
      "to run `" + sql_ + "` on '" + (file == nullptr || *file == '\0' ? ":memory:" : file) + "'");
}

template <class Param>
void Statement::bind(int index, const Param& value) {
  const int rc = std::visit(
      [&](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::nullptr_t>) {
          return sqlite3_bind_null(stmt_, index);
        } else if constexpr (std::is_same_v<T, std::int64_t>) {
          return sqlite3_bind_int64(stmt_, index, v);
        } else if constexpr (std::is_same_v<T, double>) {
          return sqlite3_bind_double(stmt_, index, v);
        } else {
          return sqlite3_bind_text64(stmt_, index, v.data(), v.size(), SQLITE_STATIC, SQLITE_UTF8);
        }
      },
      value);
  if (rc != SQLITE_OK) {
    throw_sqlite_error(db_, rc,
                       "to bind parameter ?" + std::to_string(index) + " of `" + sql_ + "`");
  }
}

Row Statement::read_row() const {
  Row row;
  const int columns = sqlite3_column_count(stmt_);
  row.reserve(static_cast<std::size_t>(columns));
  for (int c = 0; c < columns; ++c) {
    switch (sqlite3_column_type(stmt_, c)) {
      case SQLITE_INTEGER:
        row.emplace_back(static_cast<std::int64_t>(sqlite3_column_int64(stmt_, c)));
        break;
      case SQLITE_FLOAT:
        row.emplace_back(sqlite3_column_double(stmt_, c));
        break;
      case SQLITE_NULL:
        row.emplace_back(nullptr);
        break;
      default: {  // TEXT, and BLOB read as bytes
        const auto* data = static_cast<const char*>(sqlite3_column_blob(stmt_, c));
        row.emplace_back(std::string(data == nullptr ? "" : data,
                                     static_cast<std::size_t>(sqlite3_column_bytes(stmt_, c))));
      }
    }
  }
  return row;
}

}  // namespace docket::sqlite::detail
