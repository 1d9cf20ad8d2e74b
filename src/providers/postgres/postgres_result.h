// Result: owns one PGresult (RAII) and reads it: status, SQLSTATE, rows and typed
// columns, in either result format: text (the default) or binary (exec_prepared_binary,
// for hot reads: no integer printed and parsed, no bytea hex-encoded and decoded).
// In binary format int64() reads int8, int4 and int2 columns, boolean() bool columns,
// bytea() bytea columns, and text() columns of the text types (text, varchar, bpchar,
// name), whose binary form is their text; any other pairing is refused as a value of
// the wrong type.
//
// A Result may hold a failed statement (ok() is false) when it comes from a non-throwing
// helper (try_exec); the throwing helpers only ever return successful ones.
// Typed getters throw InvalidInputError for a row or column out of range, or a value that
// is not of the asked type, naming the column and the value; a NULL read by a
// non-optional getter is such an error too. Views returned by text() stay valid while
// the Result lives.
// Thread-safety: reading one Result from several threads is safe; only moving it
// changes it.
#ifndef DOCKET_PROVIDERS_POSTGRES_RESULT_H_
#define DOCKET_PROVIDERS_POSTGRES_RESULT_H_

#include <libpq-fe.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace docket::postgres::detail {

class Result {
 public:
  // Takes ownership; `result` may be nullptr (libpq out of memory or connection lost),
  // which reads as a failed Result with no SQLSTATE.
  explicit Result(PGresult* result) noexcept
      : result_(result),
        rows_(result != nullptr ? PQntuples(result) : 0),
        columns_(result != nullptr ? PQnfields(result) : 0),
        binary_(result != nullptr && columns_ > 0 && PQbinaryTuples(result) == 1) {}
  Result(Result&& other) noexcept
      : result_(std::move(other.result_)),
        rows_(std::exchange(other.rows_, 0)),
        columns_(std::exchange(other.columns_, 0)),
        binary_(std::exchange(other.binary_, false)) {}
  Result& operator=(Result&& other) noexcept {
    result_ = std::move(other.result_);
    rows_ = std::exchange(other.rows_, 0);
    columns_ = std::exchange(other.columns_, 0);
    binary_ = std::exchange(other.binary_, false);
    return *this;
  }

  PGresult* native() const noexcept { return result_.get(); }
  ExecStatusType status() const noexcept;
  // PGRES_COMMAND_OK or PGRES_TUPLES_OK.
  bool ok() const noexcept;
  // The server's five-character SQLSTATE for a failed statement, empty otherwise.
  std::string_view sqlstate() const noexcept;
  // The constraint a failed statement violated (PG_DIAG_CONSTRAINT_NAME), empty when
  // the server named none.
  std::string_view constraint_name() const noexcept;
  // "ERROR:  duplicate key value violates ..." plus DETAIL / HINT lines; empty when ok.
  std::string error_message() const;

  int rows() const noexcept { return rows_; }
  int columns() const noexcept { return columns_; }
  // Rows inserted, updated or deleted (command tag count); 0 for other statements.
  std::int64_t affected_rows() const;
  // The index of the column named `name`; throws InvalidInputError when there is none.
  int column(std::string_view name) const;

  bool is_null(int row, int column) const;
  std::string_view text(int row, int column) const;
  std::optional<std::string_view> optional_text(int row, int column) const;
  std::int64_t int64(int row, int column) const;
  std::optional<std::int64_t> optional_int64(int row, int column) const;
  bool boolean(int row, int column) const;
  std::vector<std::byte> bytea(int row, int column) const;
  // The same bytes as a std::string (an opaque payload), without a vector in between.
  std::string bytea_string(int row, int column) const;

 private:
  struct Deleter {
    void operator()(PGresult* result) const { PQclear(result); }
  };
  // One cell as libpq holds it: its bytes and, when its column came in binary format,
  // the column's type (kTextFormat when it came as text).
  struct Cell {
    std::string_view bytes;
    Oid binary_type;
  };
  static constexpr Oid kTextFormat = 0;  // InvalidOid: no type is 0

  // Throws InvalidInputError when the cell is out of range.
  void check_cell(int row, int column) const {
    if (row < 0 || row >= rows_ || column < 0 || column >= columns_) [[unlikely]] {
      throw_out_of_range(row, column);
    }
  }
  [[noreturn]] void throw_out_of_range(int row, int column) const;
  // The cell, nullopt for NULL; throws InvalidInputError when it is out of range.
  // Inline: a load reads ten of these per row.
  std::optional<Cell> optional_cell(int row, int column) const {
    check_cell(row, column);
    PGresult* r = result_.get();
    const char* data = PQgetvalue(r, row, column);
    const int length = PQgetlength(r, row, column);
    // libpq gives NULL a length of 0: only an empty value can be NULL.
    if (length == 0 && PQgetisnull(r, row, column) == 1) {
      return std::nullopt;
    }
    return Cell{.bytes = std::string_view(data, static_cast<std::size_t>(length)),
                .binary_type = binary_ ? PQftype(r, column) : kTextFormat};
  }
  // The same, throwing InvalidInputError for NULL.
  Cell cell(int row, int column) const {
    const std::optional<Cell> value = optional_cell(row, column);
    if (!value) [[unlikely]] {
      throw_null(row, column);
    }
    return *value;
  }
  [[noreturn]] void throw_null(int row, int column) const;
  std::string cell_name(int row, int column) const;
  [[noreturn]] void throw_binary_type(int row, int column, Oid type, const char* wanted) const;
  std::string_view text_of(int row, int column, const Cell& cell) const;
  std::int64_t int64_of(int row, int column, const Cell& cell) const;
  // int64_of for every cell but a binary int8 (text, int4, int2, or an error).
  std::int64_t other_int64_of(int row, int column, const Cell& cell) const;
  // The bytes of a bytea cell in a container `Bytes` (vector of std::byte, or string).
  template <class Bytes>
  Bytes bytea_as(int row, int column) const;

  std::unique_ptr<PGresult, Deleter> result_;
  // PQntuples, PQnfields and PQbinaryTuples (every column in binary format; libpq
  // asks for one format for all), read once: every getter needs them.
  int rows_ = 0;
  int columns_ = 0;
  bool binary_ = false;
};

}  // namespace docket::postgres::detail

#endif  // DOCKET_PROVIDERS_POSTGRES_RESULT_H_
