#include "docket/sqlite/transaction.h"
#include "providers/sqlite/sqlite_connection.h"
#include "providers/sqlite/sqlite_statement.h"
#include "providers/sqlite/sqlite_transaction_access.h"

namespace docket::sqlite {

std::int64_t Transaction::exec(std::string_view sql, std::initializer_list<Param> params) {
  return TransactionAccess::connection(*this).exec_views(
      sql, std::span<const Param>(params.begin(), params.size()));
}

std::vector<Row> Transaction::query(std::string_view sql, std::initializer_list<Param> params) {
  return TransactionAccess::connection(*this).query_views(
      sql, std::span<const Param>(params.begin(), params.size()));
}

std::int64_t Transaction::exec(std::string_view sql, const std::vector<Value>& params) {
  return TransactionAccess::connection(*this).exec(sql, params);
}

std::vector<Row> Transaction::query(std::string_view sql, const std::vector<Value>& params) {
  return TransactionAccess::connection(*this).query(sql, params);
}

std::int64_t Transaction::do_execute(std::string_view sql, std::span<const SqlParam> params) {
  detail::Connection& connection = TransactionAccess::connection(*this);
  connection.statement(sql).run_portable(params, nullptr);
  return connection.changes();
}

std::vector<SqlRow> Transaction::do_fetch(std::string_view sql, std::span<const SqlParam> params) {
  std::vector<SqlRow> rows;
  TransactionAccess::connection(*this).statement(sql).run_portable(params, &rows);
  return rows;
}

sqlite3* Transaction::native() const noexcept {
  return TransactionAccess::connection(*this).native();
}

}  // namespace docket::sqlite
