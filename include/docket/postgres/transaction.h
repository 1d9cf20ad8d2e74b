// A handler's view of the PostgreSQL unit of work: parameterised statements on the very
// connection and transaction that record the dedup row, so the handler's writes commit
// or roll back with it.
//
//   handlers.on<Order>("order", [](const Order& order, docket::postgres::Transaction& tx,
//                                  docket::HandlerContext&) {
//     tx.exec("INSERT INTO orders (id, qty) VALUES ($1, $2)", {order.id, order.qty});
//     tx.send("UPDATE stock SET qty = qty - $2 WHERE sku = $1", {order.sku, order.qty});
//     auto rows = tx.query("SELECT qty FROM orders WHERE id = $1", {order.id});
//   });
//
// Parameters are sent in binary with explicit types (text, int8, float8, boolean,
// bytea; NULL untyped), so cast in SQL where another type is wanted ($1::uuid).
// Result columns read back by type: NULL as nullptr, boolean as bool, int2/int4/int8
// as int64, float4/float8 as double, bytea as bytes, everything else as its text.
//
// Each distinct statement (SQL text and parameter types) is prepared on its pooled
// connection the first time it runs there and executed by name afterwards, so the
// server parses and plans a handler's statement once per connection, not per message.
// A connection keeps at most 512 prepared statements (docket's own included); SQL
// composed per call beyond that runs unprepared. Prepared plans follow schema changes as
// PostgreSQL re-plans them, except that a SELECT whose result columns change under it fails
// ("cached plan must not change result type") until the connection is replaced. A unique or
// primary-key violation throws UniqueViolationError naming the table; any other failure throws
// InfrastructureError (a PostgresError carrying the SQLSTATE) with the server's message and the
// statement. In PostgreSQL a failed statement aborts the transaction: let the error propagate.
// native() gives the PGconn* for what the wrapper lacks; never COMMIT, ROLLBACK or RELEASE through
// it (the dispatcher refuses to commit a unit of work whose transaction a handler ended).
//
// Thread-safety: belongs to the dispatching thread, valid during the handler call.
#ifndef DOCKET_POSTGRES_TRANSACTION_H_
#define DOCKET_POSTGRES_TRANSACTION_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "docket/core/handler_transaction.h"
#include "docket/core/sql_transaction.h"

// libpq's connection handle, declared as libpq-fe.h does.
typedef struct pg_conn PGconn;

namespace docket::postgres {

// How docket's own PostgreSQL code makes a Transaction and reaches the connection under
// one (src/providers/postgres/postgres_transaction_access.h).
class TransactionAccess;

using Bytes = std::vector<std::byte>;
// A bound parameter or a result column.
using Value = std::variant<std::nullptr_t, bool, std::int64_t, double, std::string, Bytes>;
using Row = std::vector<Value>;

class Transaction : public HandlerTransaction, public SqlTransaction {
 public:
  static constexpr std::string_view kTypeName = "docket::postgres::Transaction";

  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;

  std::string_view type_name() const noexcept override { return kTypeName; }

  // Runs one statement with `params` bound to $1, $2, ...; returns the rows changed.
  std::int64_t exec(std::string_view sql, const std::vector<Value>& params = {});

  // Sends one statement whose result the handler does not read: it travels with the
  // next statement of the unit of work or with its COMMIT, so a handler that only sends
  // adds no round trip of its own to a dispatch. Its failure is reported there: by the
  // handler's next exec or query, or by the dispatch (a unique violation as the
  // handler's own, after the dispatcher rules out a duplicate delivery); in a batch,
  // before the message's savepoint is released, so it fails that message alone. Use
  // exec when the handler must know the outcome before going on.
  void send(std::string_view sql, const std::vector<Value>& params = {});

  // Runs one statement and returns every result row.
  std::vector<Row> query(std::string_view sql, const std::vector<Value>& params = {});

  // The connection, with the transaction begun on the server: docket sends BEGIN and
  // savepoints together with the next statement, so this sends what is still held back
  // first (a round trip when something is). Throws InfrastructureError when that fails.
  PGconn* native() const;

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

}  // namespace docket::postgres

#endif  // DOCKET_POSTGRES_TRANSACTION_H_
