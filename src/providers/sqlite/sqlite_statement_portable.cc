// Statement::run_portable: portable SQL's $N parameters bound by name, SqlRows read back.
#include <sqlite3.h>

#include <charconv>
#include <string>
#include <type_traits>

#include "docket/core/error.h"
#include "providers/sqlite/sqlite_error.h"
#include "providers/sqlite/sqlite_statement.h"

namespace docket::sqlite::detail {
namespace {

// The N of a placeholder named "$N" (N from 1), or 0 for any other name.
std::size_t placeholder_number(const char* name) {
  if (name == nullptr || name[0] != '$') {
    return 0;
  }
  const std::string_view digits(name + 1);
  std::size_t number = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), number);
  return error == std::errc() && end == digits.data() + digits.size() ? number : 0;
}

SqlRow read_portable_row(sqlite3_stmt* stmt) {
  SqlRow row;
  const int columns = sqlite3_column_count(stmt);
  row.reserve(static_cast<std::size_t>(columns));
  for (int c = 0; c < columns; ++c) {
    switch (sqlite3_column_type(stmt, c)) {
      case SQLITE_INTEGER:
        row.emplace_back(static_cast<std::int64_t>(sqlite3_column_int64(stmt, c)));
        break;
      case SQLITE_FLOAT:
        row.emplace_back(sqlite3_column_double(stmt, c));
        break;
      case SQLITE_NULL:
        row.emplace_back(nullptr);
        break;
      case SQLITE_BLOB: {
        const auto* data = static_cast<const std::byte*>(sqlite3_column_blob(stmt, c));
        const auto size = static_cast<std::size_t>(sqlite3_column_bytes(stmt, c));
        row.emplace_back(data == nullptr ? SqlBytes{} : SqlBytes(data, data + size));
        break;
      }
      default: {
        const auto* data = reinterpret_cast<const char*>(sqlite3_column_text(stmt, c));
        row.emplace_back(std::string(data == nullptr ? "" : data,
                                     static_cast<std::size_t>(sqlite3_column_bytes(stmt, c))));
      }
    }
  }
  return row;
}

}  // namespace

void Statement::run_portable(std::span<const SqlParam> params, std::vector<SqlRow>* rows) {
  const Resetter resetter(stmt_);
  // Every placeholder must be $N with a parameter for N; every parameter must be used.
  std::vector<bool> used(params.size(), false);
  std::vector<std::string> texts;  // the timestamps' text, alive until the run ends
  texts.reserve(params.size());
  const int count = sqlite3_bind_parameter_count(stmt_);
  for (int index = 1; index <= count; ++index) {
    const char* name = sqlite3_bind_parameter_name(stmt_, index);
    const std::size_t number = placeholder_number(name);
    if (number == 0 || number > params.size()) {
      throw InvalidInputError(
          "portable SQL `" + sql_ + "` has placeholder " +
          (name == nullptr ? "?" : std::string(name)) + ", but " +
          (number == 0 ? std::string("portable SQL numbers them $1, $2, ... on every store")
                       : "only " + std::to_string(params.size()) + " parameters were given") +
          "; nothing was run");
    }
    used[number - 1] = true;
    const int rc = std::visit(
        [&](const auto& v) {
          using T = std::decay_t<decltype(v)>;
          if constexpr (std::is_same_v<T, std::nullptr_t>) {
            return sqlite3_bind_null(stmt_, index);
          } else if constexpr (std::is_same_v<T, bool>) {
            return sqlite3_bind_int64(stmt_, index, v ? 1 : 0);
          } else if constexpr (std::is_same_v<T, std::int64_t>) {
            return sqlite3_bind_int64(stmt_, index, v);
          } else if constexpr (std::is_same_v<T, double>) {
            return sqlite3_bind_double(stmt_, index, v);
          } else if constexpr (std::is_same_v<T, std::string_view>) {
            return sqlite3_bind_text64(stmt_, index, v.data(), v.size(), SQLITE_STATIC,
                                       SQLITE_UTF8);
          } else if constexpr (std::is_same_v<T, std::span<const std::byte>>) {
            // A zero-length blob, not NULL, for an empty span.
            return v.empty() ? sqlite3_bind_zeroblob(stmt_, index, 0)
                             : sqlite3_bind_blob64(stmt_, index, v.data(), v.size(), SQLITE_STATIC);
          } else {
            const std::string& text = texts.emplace_back(format_timestamp(v));
            return sqlite3_bind_text64(stmt_, index, text.data(), text.size(), SQLITE_STATIC,
                                       SQLITE_UTF8);
          }
        },
        params[number - 1].value());
    if (rc != SQLITE_OK) {
      throw_sqlite_error(db_, rc,
                         "to bind parameter $" + std::to_string(number) + " of `" + sql_ + "`");
    }
  }
  for (std::size_t i = 0; i < used.size(); ++i) {
    if (!used[i]) {
      throw InvalidInputError("portable SQL `" + sql_ + "` was given parameter $" +
                              std::to_string(i + 1) +
                              ", which it does not use; pass as many parameters as the "
                              "statement has placeholders. Nothing was run.");
    }
  }
  while (step()) {
    if (rows != nullptr) {
      rows->push_back(read_portable_row(stmt_));
    }
  }
}

}  // namespace docket::sqlite::detail
