#include "providers/postgres/result.h"

#include <charconv>

#include "docket/error.h"
#include "providers/postgres/libpq_text.h"

namespace docket::postgres {

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

std::string Result::error_message() const {
  if (ok()) {
    return {};
  }
  if (!result_) {
    return "no result from libpq (out of memory, or the connection was lost)";
  }
  return libpq_message(PQresultErrorMessage(result_.get()));
}

int Result::rows() const noexcept {
  return result_ ? PQntuples(result_.get()) : 0;
}

int Result::columns() const noexcept {
  return result_ ? PQnfields(result_.get()) : 0;
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

void Result::check_cell(int row, int column) const {
  if (row < 0 || row >= rows() || column < 0 || column >= columns()) {
    throw InvalidInputError("cannot read " + cell_name(row, column) + ": the result has " +
                            std::to_string(rows()) + " rows and " + std::to_string(columns()) +
                            " columns");
  }
}

void Result::check_not_null(int row, int column) const {
  if (is_null(row, column)) {
    throw InvalidInputError(cell_name(row, column) +
                            " is NULL; read it with an optional_ getter or select a non-NULL "
                            "expression");
  }
}

bool Result::is_null(int row, int column) const {
  check_cell(row, column);
  return PQgetisnull(result_.get(), row, column) == 1;
}

std::string_view Result::text(int row, int column) const {
  check_not_null(row, column);
  return {PQgetvalue(result_.get(), row, column),
          static_cast<std::size_t>(PQgetlength(result_.get(), row, column))};
}

std::optional<std::string_view> Result::optional_text(int row, int column) const {
  if (is_null(row, column)) {
    return std::nullopt;
  }
  return text(row, column);
}

std::int64_t Result::int64(int row, int column) const {
  std::string_view value = text(row, column);
  std::int64_t number = 0;
  auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), number);
  if (error != std::errc() || end != value.data() + value.size()) {
    throw InvalidInputError(cell_name(row, column) + " holds \"" + std::string(value) +
                            "\", not a 64-bit integer");
  }
  return number;
}

std::optional<std::int64_t> Result::optional_int64(int row, int column) const {
  if (is_null(row, column)) {
    return std::nullopt;
  }
  return int64(row, column);
}

bool Result::boolean(int row, int column) const {
  std::string_view value = text(row, column);
  if (value == "t") {
    return true;
  }
  if (value == "f") {
    return false;
  }
  throw InvalidInputError(cell_name(row, column) + " holds \"" + std::string(value) +
                          "\", not a boolean (t or f)");
}

std::vector<std::byte> Result::bytea(int row, int column) const {
  std::string_view value = text(row, column);
  // Text output of bytea is hex ("\x0a1b...", bytea_output = hex, the default since 9.0).
  if (value.size() < 2 || value[0] != '\\' || value[1] != 'x' || value.size() % 2 != 0) {
    throw InvalidInputError(cell_name(row, column) +
                            " is not a bytea in hex output format; select a bytea column "
                            "and keep bytea_output = hex");
  }
  std::vector<std::byte> bytes;
  bytes.reserve((value.size() - 2) / 2);
  for (std::size_t i = 2; i < value.size(); i += 2) {
    int high = hex_digit_value(value[i]);
    int low = hex_digit_value(value[i + 1]);
    if (high < 0 || low < 0) {
      throw InvalidInputError(cell_name(row, column) + " has a non-hex digit at offset " +
                              std::to_string(i) + " of its bytea text");
    }
    bytes.push_back(static_cast<std::byte>(high * 16 + low));
  }
  return bytes;
}

}  // namespace docket::postgres
