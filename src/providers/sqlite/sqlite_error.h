// Turns a failed SQLite call into docket's exceptions: UniqueViolationError for a
// primary-key or unique constraint (by extended result code), InfrastructureError for
// everything else, each naming the statement, SQLite's code and message.
//
// Thread-safety: reads the connection's last error; call on the thread that failed.
#ifndef DOCKET_PROVIDERS_SQLITE_SQLITE_ERROR_H_
#define DOCKET_PROVIDERS_SQLITE_SQLITE_ERROR_H_

#include <string_view>

struct sqlite3;

namespace docket::sqlite::detail {

[[noreturn]] void throw_sqlite_error(sqlite3* db, int rc, std::string_view doing);

}  // namespace docket::sqlite::detail

#endif  // DOCKET_PROVIDERS_SQLITE_SQLITE_ERROR_H_
