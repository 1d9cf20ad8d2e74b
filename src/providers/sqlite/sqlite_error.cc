#include "providers/sqlite/sqlite_error.h"

#include <sqlite3.h>

#include <string>

#include "docket/core/error.h"
#include "docket/inbox/inbox_errors.h"

namespace docket::sqlite::detail {
namespace {

// The table named by SQLite's constraint message "UNIQUE constraint failed: t.col".
std::string constrained_table(std::string_view message) {
  const auto colon = message.find(": ");
  if (colon == std::string_view::npos) {
    return {};
  }
  const std::string_view columns = message.substr(colon + 2);
  return std::string(columns.substr(0, columns.find('.')));
}

}  // namespace

void throw_sqlite_error(sqlite3* db, int rc, std::string_view doing) {
  const int extended = db != nullptr ? sqlite3_extended_errcode(db) : rc;
  const std::string message = db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
  const std::string text = "SQLite failed " + std::string(doing) + ": " + message + " (code " +
                           std::to_string(extended) + ", " + sqlite3_errstr(extended) + ")";
  if (extended == SQLITE_CONSTRAINT_PRIMARYKEY || extended == SQLITE_CONSTRAINT_UNIQUE) {
    throw UniqueViolationError(constrained_table(message), text);
  }
  if ((extended & 0xff) == SQLITE_BUSY) {
    throw InfrastructureError(text +
                              "; the database stayed locked for the whole busy timeout: "
                              "raise StoreOptions::busy_timeout or shorten other transactions");
  }
  throw InfrastructureError(text);
}

}  // namespace docket::sqlite::detail
