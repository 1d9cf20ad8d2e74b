// RAII for one prepared statement (sqlite3_stmt*): bind ?1..?N, step through rows,
// reset for reuse.
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

#include "docket/sqlite/transaction.h"

struct sqlite3;
struct sqlite3_stmt;

namespace docket::sqlite::detail {

// A parameter bound without copying (docket::sqlite::Param). The store's own statements
// bind these, so recording a message copies none of its strings.
using ParamView = Param;

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

 private:
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
