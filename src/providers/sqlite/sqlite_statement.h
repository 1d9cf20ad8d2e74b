// RAII for one prepared statement (sqlite3_stmt*): bind ?1..?N, step through rows,
// reset for reuse. Rows are collected as Values (run), or read in place, column by
// column, by a visitor (for_each_row): the hot reads (an event stream's load) build
// their results straight from SQLite's row, with no Row in between.
//
// Thread-safety: belongs to its connection's current user.
#ifndef DOCKET_PROVIDERS_SQLITE_SQLITE_STATEMENT_H_
#define DOCKET_PROVIDERS_SQLITE_SQLITE_STATEMENT_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "docket/core/sql_transaction.h"
#include "docket/sqlite/transaction.h"

struct sqlite3;
struct sqlite3_stmt;

namespace docket::sqlite::detail {

// A parameter bound without copying (docket::sqlite::Param). The store's own statements
// bind these, so recording a message copies none of its strings.
using ParamView = Param;

// The current row of a statement being stepped by Statement::for_each_row. Reads
// nothing itself: each accessor asks SQLite for one column of this row.
class RowView {
 public:
  explicit RowView(sqlite3_stmt* stmt) noexcept : stmt_(stmt) {}

  // Whether the column is NULL (the claim inbox's optional fields).
  bool is_null(int column) const noexcept;
  // The column as an integer (SQLite converts other types; NULL reads as 0).
  std::int64_t int64(int column) const noexcept;
  // The column's text or blob bytes (NULL reads as empty), valid until the visitor
  // returns.
  std::string_view bytes(int column) const noexcept;

 private:
  sqlite3_stmt* stmt_;
};

class Statement {
 public:
  // Prepares `sql` (one statement) on `db`; throws InfrastructureError naming it.
  Statement(sqlite3* db, std::string_view sql);
  ~Statement();
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  // Binds `params`, runs to completion, collects rows when `rows` is non-null, and
  // resets the statement (also on failure) so that it can run again.
  void run(const std::vector<Value>& params, std::vector<Row>* rows);
  void run(std::span<const ParamView> params, std::vector<Row>* rows);
  // The same for portable SQL (docket/core/sql_transaction.h): binds `params` to the
  // statement's $1, $2, ... by name, refusing a placeholder of another form or without
  // its parameter (InvalidInputError); rows read blobs as bytes
  // (sqlite_statement_portable.cc).
  void run_portable(std::span<const SqlParam> params, std::vector<SqlRow>* rows);

  // Binds `params`, runs to completion calling `visit(const RowView&)` for each row,
  // and resets the statement (also when `visit` or a step throws).
  template <class Visit>
  void for_each_row(std::span<const ParamView> params, Visit&& visit) {
    const Resetter resetter(stmt_);
    bind_all(params);
    const RowView row(stmt_);
    while (step()) {
      visit(row);
    }
  }

 private:
  // Resets the statement and clears its bindings when a run ends, however it ends.
  struct Resetter {
    explicit Resetter(sqlite3_stmt* statement) noexcept : stmt(statement) {}
    ~Resetter();
    Resetter(const Resetter&) = delete;
    Resetter& operator=(const Resetter&) = delete;
    sqlite3_stmt* stmt;
  };

  // Binds ?1..?N; throws InfrastructureError naming the parameter.
  void bind_all(const std::vector<Value>& params);
  void bind_all(std::span<const ParamView> params);
  template <class Params>
  void bind_each(const Params& params);
  // Steps once: true when a row is there, false when done; throws InfrastructureError
  // naming the statement and the database on failure.
  bool step();
  template <class Params>
  void run_with(const Params& params, std::vector<Row>* rows);
  template <class Param>
  void bind(int index, const Param& value);
  Row read_row() const;

  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
  std::string sql_;
};

}  // namespace docket::sqlite::detail

#endif  // DOCKET_PROVIDERS_SQLITE_SQLITE_STATEMENT_H_
