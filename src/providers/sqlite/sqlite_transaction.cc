#include "docket/sqlite/transaction.h"
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

sqlite3* Transaction::native() const noexcept {
  return TransactionAccess::connection(*this).native();
}

}  // namespace docket::sqlite
