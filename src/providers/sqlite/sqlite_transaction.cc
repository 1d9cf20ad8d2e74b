#include "docket/sqlite/transaction.h"
#include "providers/sqlite/sqlite_connection.h"

namespace docket::sqlite {

std::int64_t Transaction::exec(std::string_view sql, std::initializer_list<Param> params) {
  return connection_->exec_views(sql, std::span<const Param>(params.begin(), params.size()));
}

std::vector<Row> Transaction::query(std::string_view sql, std::initializer_list<Param> params) {
  return connection_->query_views(sql, std::span<const Param>(params.begin(), params.size()));
}

std::int64_t Transaction::exec(std::string_view sql, const std::vector<Value>& params) {
  return connection_->exec(sql, params);
}

std::vector<Row> Transaction::query(std::string_view sql, const std::vector<Value>& params) {
  return connection_->query(sql, params);
}

sqlite3* Transaction::native() const noexcept {
  return connection_->native();
}

}  // namespace docket::sqlite
