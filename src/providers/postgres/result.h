// Result: owns one PGresult (RAII) and reads it: status, SQLSTATE, rows and typed
// columns (text result format).
//
// A Result may hold a failed statement (ok() is false) when it comes from a non-throwing
// helper (try_exec); the throwing helpers only ever return successful ones.
// Typed getters throw InvalidInputError for a row or column out of range, or a value that
// is not of the asked type, naming the column and the value; a NULL read by a
// non-optional getter is such an error too. Views returned by text() stay valid while
// the Result lives.
// Thread-safety: reading one Result from several threads is safe; it has no mutators.
#ifndef DOCKET_PROVIDERS_POSTGRES_RESULT_H_
#define DOCKET_PROVIDERS_POSTGRES_RESULT_H_

#include <libpq-fe.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace docket::postgres {

class Result {
 public:
  // Takes ownership; `result` may be nullptr (libpq out of memory or connection lost),
  // which reads as a failed Result with no SQLSTATE.
  explicit Result(PGresult* result) noexcept : result_(result) {}

  PGresult* native() const noexcept { return result_.get(); }
  ExecStatusType status() const noexcept;
  // PGRES_COMMAND_OK or PGRES_TUPLES_OK.
  bool ok() const noexcept;
  // The server's five-character SQLSTATE for a failed statement, empty otherwise.
  std::string_view sqlstate() const noexcept;
  // "ERROR:  duplicate key value violates ..." plus DETAIL / HINT lines; empty when ok.
  std::string error_message() const;

  int rows() const noexcept;
  int columns() const noexcept;
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

 private:
  struct Deleter {
    void operator()(PGresult* result) const { PQclear(result); }
  };
  void check_cell(int row, int column) const;
  void check_not_null(int row, int column) const;
  std::string cell_name(int row, int column) const;

  std::unique_ptr<PGresult, Deleter> result_;
};

}  // namespace docket::postgres

#endif  // DOCKET_PROVIDERS_POSTGRES_RESULT_H_
