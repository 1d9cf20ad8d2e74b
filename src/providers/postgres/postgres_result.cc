#include "providers/postgres/postgres_result.h"

#include <charconv>

#include "docket/core/error.h"
#include "providers/postgres/postgres_libpq_text.h"

namespace docket::postgres::detail {

ExecStatusType Result::status() const noexcept {
  return result_ ? PQresultStatus(result_.get()) : PGRES_FATAL_ERROR;
}

bool Result::ok() const noexcept {
  ExecStatusType s = status();
  return s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK;
}

std::string_view Result::sqlstate() const noexcept {
  if (!result_ || ok()) {
    return {};
  }
  const char* code = PQresultErrorField(result_.get(), PG_DIAG_SQLSTATE);
  return code != nullptr ? std::string_view(code) : std::string_view();
}

std::string_view Result::constraint_name() const noexcept {
  if (!result_ || ok()) {
    return {};
  }
  const char* name = PQresultErrorField(result_.get(), PG_DIAG_CONSTRAINT_NAME);
  return name != nullptr ? std::string_view(name) : std::string_view();
}

std::string Result::error_message() const {
  if (ok()) {
    return {};
  }
  if (!result_) {
    return "no result from libpq (out of memory, or the connection was lost)";
  }
  return libpq_message(PQresultErrorMessage(result_.get()));
}

std::int64_t Result::affected_rows() const {
  const char* count = result_ ? PQcmdTuples(result_.get()) : "";
  std::string_view text(count);
  std::int64_t value = 0;
  if (text.empty()) {
    return 0;
  }
  std::from_chars(text.data(), text.data() + text.size(), value);
  return value;
}

int Result::column(std::string_view name) const {
  for (int i = 0; i < columns(); ++i) {
    if (name == PQfname(result_.get(), i)) {
      return i;
    }
  }
  std::string names;
  for (int i = 0; i < columns(); ++i) {
    names += (i == 0 ? "" : ", ") + std::string(PQfname(result_.get(), i));
  }
  throw InvalidInputError("the result has no column \"" + std::string(name) +
                          "\"; its columns are: " + (names.empty() ? "(none)" : names));
}

std::string Result::cell_name(int row, int column) const {
  std::string name = column >= 0 && column < columns() ? PQfname(result_.get(), column) : "?";
  return "row " + std::to_string(row) + " column " + std::to_string(column) + " (\"" + name + "\")";
}

void Result::throw_out_of_range(int row, int column) const {
  throw InvalidInputError("cannot read " + cell_name(row, column) + ": the result has " +
                          std::to_string(rows_) + " rows and " + std::to_string(columns_) +
                          " columns");
}

void Result::throw_null(int row, int column) const {
  throw InvalidInputError(cell_name(row, column) +
                          " is NULL; read it with an optional_ getter or select a non-NULL "
                          "expression");
}

bool Result::is_null(int row, int column) const {
  check_cell(row, column);
  return PQgetisnull(result_.get(), row, column) == 1;
}

void Result::throw_binary_type(int row, int column, Oid type, const char* wanted) const {
  throw InvalidInputError(cell_name(row, column) + " is a binary value of type oid " +
                          std::to_string(type) + ", not " + wanted +
                          "; select it as one, or run the statement with text results");
}

}  // namespace docket::postgres::detail
