#include "providers/postgres/postgres_unique_violation.h"

#include <string>

#include "docket/inbox/inbox_errors.h"
#include "providers/postgres/postgres_exec.h"

namespace docket::postgres::detail {

void throw_mapped_failure(const Connection& conn, const Result& result,
                          std::string_view statement) {
  try {
    throw_failure(conn, result, statement);
  } catch (const PostgresError& error) {
    if (!error.is_unique_violation()) {
      throw;
    }
    const char* table = PQresultErrorField(result.native(), PG_DIAG_TABLE_NAME);
    throw UniqueViolationError(table != nullptr ? table : "", error.what());
  }
}

Result exec_mapped(Connection& conn, std::string_view sql, std::span<const Param> params) {
  Result result = try_exec_cached(conn, sql, params);
  if (!result.ok()) {
    throw_mapped_failure(conn, result, sql);
  }
  return result;
}

Result exec_prepared_mapped(Connection& conn, std::string_view name, std::string_view sql,
                            std::span<const Param> params) {
  Result result = try_exec_prepared(conn, name, sql, params);
  if (!result.ok()) {
    throw_mapped_failure(conn, result, sql);
  }
  return result;
}

void commit_mapped(TransactionBlock& tx) {
  try {
    tx.commit();
  } catch (const PostgresError& error) {
    if (!error.is_unique_violation()) {
      throw;
    }
    throw UniqueViolationError("", error.what());
  }
}

}  // namespace docket::postgres::detail
