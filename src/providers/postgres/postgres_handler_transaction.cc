// docket::postgres::Transaction: values in as binary parameters, rows out by column type.
#include <charconv>
#include <string>
#include <system_error>
#include <utility>

#include "docket/core/error.h"
#include "docket/postgres/transaction.h"
#include "providers/postgres/postgres_flight.h"
#include "providers/postgres/postgres_transaction_access.h"
#include "providers/postgres/postgres_unique_violation.h"

namespace docket::postgres::detail {
namespace {

// Result column types read as something other than text (pg_type.oid).
constexpr Oid kInt2 = 21;
constexpr Oid kInt4 = 23;
constexpr Oid kFloat4 = 700;

double to_double(std::string_view text, std::string_view column) {
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) {
    throw InvalidInputError("column '" + std::string(column) + "' holds '" + std::string(text) +
                            "', which does not read as a double");
  }
  return value;
}

Value cell(const Result& result, int row, int column) {
  if (result.is_null(row, column)) {
    return nullptr;
  }
  switch (PQftype(result.native(), column)) {
    case type_oid::kBoolean:
      return result.boolean(row, column);
    case type_oid::kInt8:
    case kInt4:
    case kInt2:
      return result.int64(row, column);
    case type_oid::kFloat8:
    case kFloat4:
      return to_double(result.text(row, column), PQfname(result.native(), column));
    case type_oid::kBytea:
      return result.bytea(row, column);
    default:
      return std::string(result.text(row, column));
  }
}

}  // namespace
}  // namespace docket::postgres::detail

namespace docket::postgres {
using detail::cell;
using detail::Connection;
using detail::exec_mapped;
using detail::flush_deferred;
using detail::Result;
using detail::to_params;

std::int64_t Transaction::exec(std::string_view sql, const std::vector<Value>& params) {
  const auto bound = to_params(params);
  return exec_mapped(TransactionAccess::connection(*this), sql, bound).affected_rows();
}

void Transaction::send(std::string_view sql, const std::vector<Value>& params) {
  const auto bound = to_params(params);
  TransactionAccess::connection(*this).defer_write(sql, /*name=*/{}, bound);
}

std::vector<Row> Transaction::query(std::string_view sql, const std::vector<Value>& params) {
  const auto bound = to_params(params);
  const Result result = exec_mapped(TransactionAccess::connection(*this), sql, bound);
  std::vector<Row> rows;
  rows.reserve(static_cast<std::size_t>(result.rows()));
  for (int r = 0; r < result.rows(); ++r) {
    Row row;
    row.reserve(static_cast<std::size_t>(result.columns()));
    for (int c = 0; c < result.columns(); ++c) {
      row.push_back(cell(result, r, c));
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

std::int64_t Transaction::do_execute(std::string_view sql, std::span<const SqlParam> params) {
  const auto bound = to_params(params);
  return exec_mapped(TransactionAccess::connection(*this), sql, bound).affected_rows();
}

std::vector<SqlRow> Transaction::do_fetch(std::string_view sql, std::span<const SqlParam> params) {
  const auto bound = to_params(params);
  const Result result = exec_mapped(TransactionAccess::connection(*this), sql, bound);
  std::vector<SqlRow> rows;
  rows.reserve(static_cast<std::size_t>(result.rows()));
  for (int r = 0; r < result.rows(); ++r) {
    SqlRow row;
    row.reserve(static_cast<std::size_t>(result.columns()));
    for (int c = 0; c < result.columns(); ++c) {
      // The portable forms: a boolean as 0/1 (SQLite has none), the rest as read.
      row.push_back(std::visit(
          [](auto&& v) -> SqlValue {
            if constexpr (std::is_same_v<std::decay_t<decltype(v)>, bool>) {
              return std::int64_t{v ? 1 : 0};
            } else {
              return SqlValue(std::move(v));
            }
          },
          cell(result, r, c)));
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

PGconn* Transaction::native() const {
  Connection& connection = TransactionAccess::connection(*this);
  flush_deferred(connection);  // what the caller sends must run inside the transaction
  return connection.native();
}

}  // namespace docket::postgres
