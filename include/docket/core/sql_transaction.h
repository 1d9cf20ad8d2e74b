// Portable SQL: one interface that the SQLite and PostgreSQL providers' transactions
// both implement, so that a handler or producer written against it runs on either
// store and switching is a change of URL:
//
//   handlers.on([](const OrderPlaced& e, docket::SqlTransaction& tx, docket::HandlerContext&) {
//     tx.execute("INSERT INTO invoices (order_id, cents, due) VALUES ($1, $2, $3)",
//                {e.order_id, e.cents, e.due});
//     auto rows = tx.fetch("SELECT count(*) FROM invoices WHERE order_id = $1", {e.order_id});
//   });
//
// One placeholder style, $1, $2, ... on both (each number may appear more than once).
// Parameters (SqlParam) bind what C++ code has at hand, the same way on both stores:
//   - strings: std::string, std::string_view, const char* (borrowed for the call);
//   - integers of every width and signedness, as a 64-bit integer: an unsigned value
//     above INT64_MAX is refused (InvalidInputError naming it), never wrapped;
//   - bool (PostgreSQL boolean; SQLite 0/1), double;
//   - bytes: std::span<const std::byte> or SqlBytes (PostgreSQL bytea; SQLite blob);
//   - Timestamp, as the instant (PostgreSQL timestamptz; SQLite ISO 8601 text in UTC
//     with microseconds, "2026-12-06T16:30:47.221380Z", which sorts as time does);
//   - std::optional<T> of any of these, and nullptr / std::nullopt: NULL.
// Result columns (SqlValue) read as NULL, an integer (booleans as 0/1), a double,
// text, or bytes (PostgreSQL bytea; SQLite blob); any other PostgreSQL type reads as its
// text, so cast in SQL where a portable form matters (`due::text`, `extract(epoch ...)`).
//
// The statements themselves must be SQL both databases accept; docket does not
// translate dialects. The providers' own transactions (docket::sqlite::Transaction,
// docket::postgres::Transaction) stay available for what is provider-specific.
//
// A handler written against SqlTransaction is refused at start-up by an InboxDispatcher
// whose store's transactions do not implement it (the memory, DynamoDB and Firestore
// providers), naming the store; a producer's unit->transaction<docket::SqlTransaction>()
// is a checked cast (docket/core/unit_of_work.h).
//
// Failures are the provider's: a unique violation is UniqueViolationError naming the
// table, anything else InfrastructureError with the server's message. A placeholder
// without a parameter, or a parameter without its placeholder, is InvalidInputError
// before anything runs on SQLite, and the server's refusal (InfrastructureError) on
// PostgreSQL, which docket does not parse SQL to foresee.
//
// Thread-safety: as the provider's transaction, valid during the handler call or the
// unit of work, on its thread.
#ifndef DOCKET_CORE_SQL_TRANSACTION_H_
#define DOCKET_CORE_SQL_TRANSACTION_H_

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "docket/core/clock.h"

namespace docket {

using SqlBytes = std::vector<std::byte>;

// A result column.
using SqlValue = std::variant<std::nullptr_t, std::int64_t, double, std::string, SqlBytes>;
using SqlRow = std::vector<SqlValue>;

// One statement parameter (see above). Borrows strings and bytes: what it was made from
// must outlive the statement call.
class SqlParam {
 public:
  using Value = std::variant<std::nullptr_t, bool, std::int64_t, double, std::string_view,
                             std::span<const std::byte>, Timestamp>;

  SqlParam(std::nullptr_t) noexcept : value_(nullptr) {}                                   // NOLINT
  SqlParam(std::nullopt_t) noexcept : value_(nullptr) {}                                   // NOLINT
  SqlParam(bool value) noexcept : value_(value) {}                                         // NOLINT
  SqlParam(double value) noexcept : value_(value) {}                                       // NOLINT
  SqlParam(std::string_view value) noexcept : value_(value) {}                             // NOLINT
  SqlParam(const char* value) noexcept : value_(std::string_view(value)) {}                // NOLINT
  SqlParam(const std::string& value) noexcept : value_(std::string_view(value)) {}         // NOLINT
  SqlParam(std::span<const std::byte> value) noexcept : value_(value) {}                   // NOLINT
  SqlParam(const SqlBytes& value) noexcept : value_(std::span<const std::byte>(value)) {}  // NOLINT
  SqlParam(Timestamp value) noexcept : value_(value) {}                                    // NOLINT

  template <std::integral Integer>
  requires(!std::same_as<Integer, bool>) SqlParam(Integer value)  // NOLINT
      : value_(checked_int64(value)) {}

  template <class T>
  SqlParam(const std::optional<T>& value)  // NOLINT
      : value_(value ? SqlParam(*value).value_ : Value(nullptr)) {}

  const Value& value() const noexcept { return value_; }

 private:
  template <std::integral Integer>
  static std::int64_t checked_int64(Integer value) {
    if constexpr (std::is_unsigned_v<Integer> &&
                  std::numeric_limits<Integer>::max() >
                      static_cast<std::make_unsigned_t<std::int64_t>>(
                          std::numeric_limits<std::int64_t>::max())) {
      if (value > static_cast<Integer>(std::numeric_limits<std::int64_t>::max())) {
        refuse_unsigned(static_cast<std::uint64_t>(value));
      }
    }
    return static_cast<std::int64_t>(value);
  }
  [[noreturn]] static void refuse_unsigned(std::uint64_t value);

  Value value_;
};

class SqlTransaction {
 public:
  // For transaction_as / UnitOfWork::transaction<T> / HandlerContext::transaction<T>.
  static constexpr std::string_view kTypeName = "docket::SqlTransaction";

  // Runs one statement with `params` bound to $1, $2, ...; returns the rows it changed.
  std::int64_t execute(std::string_view sql, std::initializer_list<SqlParam> params = {}) {
    return do_execute(sql, std::span<const SqlParam>(params.begin(), params.size()));
  }
  std::int64_t execute(std::string_view sql, std::span<const SqlParam> params) {
    return do_execute(sql, params);
  }

  // Runs one statement and returns every row it produced.
  std::vector<SqlRow> fetch(std::string_view sql, std::initializer_list<SqlParam> params = {}) {
    return do_fetch(sql, std::span<const SqlParam>(params.begin(), params.size()));
  }
  std::vector<SqlRow> fetch(std::string_view sql, std::span<const SqlParam> params) {
    return do_fetch(sql, params);
  }

 protected:
  SqlTransaction() = default;
  SqlTransaction(const SqlTransaction&) = default;
  SqlTransaction& operator=(const SqlTransaction&) = default;
  ~SqlTransaction() = default;

  virtual std::int64_t do_execute(std::string_view sql, std::span<const SqlParam> params) = 0;
  virtual std::vector<SqlRow> do_fetch(std::string_view sql, std::span<const SqlParam> params) = 0;
};

}  // namespace docket

#endif  // DOCKET_CORE_SQL_TRANSACTION_H_
