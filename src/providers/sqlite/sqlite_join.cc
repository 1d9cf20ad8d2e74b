#include "providers/sqlite/sqlite_join.h"

#include <sqlite3.h>

#include "docket/sqlite/transaction.h"

namespace docket::sqlite::detail {

std::string database_file(sqlite3* db) {
  const char* name = sqlite3_db_filename(db, "main");
  return name == nullptr ? std::string() : std::string(name);
}

std::optional<std::string> join_refusal(const HandlerTransaction& transaction,
                                        const std::string& file, std::string_view store) {
  const auto* tx = dynamic_cast<const Transaction*>(&transaction);
  if (tx == nullptr) {
    return "it is another provider's transaction, and the sqlite " + std::string(store) +
           " works only in a " + std::string(Transaction::kTypeName);
  }
  if (file.empty()) {
    return "this " + std::string(store) +
           " is on an in-memory database, which no other store's connection can share";
  }
  if (const std::string other = database_file(tx->native()); other != file) {
    return "the transaction is on " +
           (other.empty() ? "an in-memory database" : "database '" + other + "'") + " and this " +
           std::string(store) + " on database '" + file + "'";
  }
  return std::nullopt;
}

}  // namespace docket::sqlite::detail
