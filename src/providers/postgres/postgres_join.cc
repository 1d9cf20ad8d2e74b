#include "providers/postgres/postgres_join.h"

#include <cstdint>

#include "docket/postgres/transaction.h"
#include "providers/postgres/postgres_exec.h"
#include "providers/postgres/postgres_transaction_access.h"

namespace docket::postgres::detail {

std::string table_identity(Connection& conn, std::string_view table) {
  const Result r =
      exec(conn, "SELECT current_database(), to_regclass($1)::oid::BIGINT", std::string(table));
  const std::optional<std::int64_t> oid = r.optional_int64(0, 1);
  return (oid ? "table " + std::to_string(*oid) : std::string("no table")) + " of database \"" +
         std::string(r.text(0, 0)) + "\"";
}

std::optional<std::string> join_refusal(HandlerTransaction& transaction, std::string_view store,
                                        std::string_view table, const std::string& identity) {
  auto* tx = dynamic_cast<Transaction*>(&transaction);
  if (tx == nullptr) {
    return "it is another provider's transaction, and the postgres " + std::string(store) +
           " works only in a " + std::string(Transaction::kTypeName);
  }
  if (const std::string other = table_identity(TransactionAccess::connection(*tx), table);
      other != identity) {
    return "the transaction's " + std::string(table) + " is " + other + " and this " +
           std::string(store) + "'s is " + identity + "; open both stores with the same conninfo";
  }
  return std::nullopt;
}

}  // namespace docket::postgres::detail
