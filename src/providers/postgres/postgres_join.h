// Whether a store of docket's own PostgreSQL provider may work inside a caller's
// transaction (an inbox handler's unit of work), shared by the event store and the saga
// store: only a docket::postgres::Transaction whose connection resolves the store's
// table to the very table the store uses (same database, same search_path) can carry
// its writes; anywhere else they would commit where the store never reads them.
//
// Thread-safety: as the connection's (the transaction belongs to the calling thread).
#ifndef DOCKET_PROVIDERS_POSTGRES_JOIN_H_
#define DOCKET_PROVIDERS_POSTGRES_JOIN_H_

#include <optional>
#include <string>
#include <string_view>

#include "docket/core/handler_transaction.h"
#include "providers/postgres/postgres_connection.h"

namespace docket::postgres::detail {

// Where a store's write runs: as an autocommit statement, which is its own
// transaction, or inside the caller's open transaction, which it never ends.
enum class Joining { kOwnTransaction, kCallersTransaction };

// "table 16423 of database \"docket\"" (or "no table of database ..." when the
// connection's search_path has none): which `table` a connection writes to.
std::string table_identity(Connection& conn, std::string_view table);

// Why the `store` ("event store", "saga store"), whose `table` is `identity`, cannot
// work inside `transaction`, or nullopt when it can: the transaction is then a
// docket::postgres::Transaction on that table. The reason completes the store's
// cannot_join_error message.
std::optional<std::string> join_refusal(HandlerTransaction& transaction, std::string_view store,
                                        std::string_view table, const std::string& identity);

}  // namespace docket::postgres::detail

#endif  // DOCKET_PROVIDERS_POSTGRES_JOIN_H_
