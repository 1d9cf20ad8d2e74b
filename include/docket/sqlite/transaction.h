// A handler's view of the SQLite unit of work: parameterised statements on the very
// connection and transaction that record the dedup row, so the handler's writes
// commit or roll back with it.
//
//   handlers.on<Order>("order", [](const Order& order, docket::sqlite::Transaction& tx,
//                                  docket::HandlerContext&) {
//     tx.exec("INSERT INTO orders(id, qty) VALUES (?1, ?2)", {order.id, order.qty});
//     auto rows = tx.query("SELECT qty FROM orders WHERE id = ?1", {order.id});
//   });
//
// Statements are prepared once per connection and cached. A constraint failure on a
// primary key or unique index throws UniqueViolationError; any other SQLite failure
// throws InfrastructureError with SQLite's code and message and the statement.
// native() gives the sqlite3* for what the wrapper lacks; never COMMIT, ROLLBACK or
// RELEASE through it (the dispatcher refuses to commit a unit of work whose
// transaction a handler ended).
//
// Thread-safety: belongs to the dispatching thread, valid during the handler call.
#ifndef DOCKET_SQLITE_TRANSACTION_H_
#define DOCKET_SQLITE_TRANSACTION_H_

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "docket/core/handler_transaction.h"
#include "docket/core/sql_transaction.h"

struct sqlite3;

namespace docket::sqlite {

// How docket's own SQLite code makes a Transaction and reaches the connection under
// one (src/providers/sqlite/sqlite_transaction_access.h).
class TransactionAccess;

// A bound parameter or a result column: NULL, INTEGER, REAL or TEXT.
using Value = std::variant<std::nullptr_t, std::int64_t, double, std::string>;
using Row = std::vector<Value>;

// A bound parameter that copies nothing: text is a view that must stay valid while the
// statement runs, which a braced list of arguments always does. exec and query pick
// it for a braced list ({order.id, qty}), so a handler's statement binds its strings
// where they are, without allocating.
using Param = std::variant<std::nullptr_t, std::int64_t, double, std::string_view>;

class Transaction : public HandlerTransaction, public SqlTransaction {
 public:
  static constexpr std::string_view kTypeName = "docket::sqlite::Transaction";

  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;

  std::string_view type_name() const noexcept override { return kTypeName; }

  // Runs one statement with `params` bound to ?1, ?2, ...; returns the rows changed.
  std::int64_t exec(std::string_view sql, std::initializer_list<Param> params = {});
  std::int64_t exec(std::string_view sql, const std::vector<Value>& params);

  // Runs one statement and returns every result row.
  std::vector<Row> query(std::string_view sql, std::initializer_list<Param> params = {});
  std::vector<Row> query(std::string_view sql, const std::vector<Value>& params);

  sqlite3* native() const noexcept;

  // Portable SQL (docket/core/sql_transaction.h): execute() and fetch() with $1, $2, ...
  using SqlTransaction::execute;
  using SqlTransaction::fetch;

 private:
  std::int64_t do_execute(std::string_view sql, std::span<const SqlParam> params) override;
  std::vector<SqlRow> do_fetch(std::string_view sql, std::span<const SqlParam> params) override;

  friend class TransactionAccess;

  // What the transaction runs on (a pooled connection in a transaction), defined by docket's own
  // code (TransactionAccess), which alone makes a Transaction.
  struct Handle;

  explicit Transaction(Handle& handle) noexcept : handle_(&handle) {}

  Handle* handle_;
};

}  // namespace docket::sqlite

#endif  // DOCKET_SQLITE_TRANSACTION_H_
