// The checks every SQLite store factory applies to its StoreOptions, worded alike.
//
// Thread-safety: pure function.
#ifndef DOCKET_PROVIDERS_SQLITE_SQLITE_OPTIONS_H_
#define DOCKET_PROVIDERS_SQLITE_SQLITE_OPTIONS_H_

#include <string_view>

#include "docket/sqlite/store.h"

namespace docket::sqlite::detail {

// `options` as the store will use them: throws ConfigurationError, naming `store`
// ("SQLite store", "SQLite event store", ...), for an empty path or max_connections
// of 0; ":memory:" gets a single connection (every connection to it is its own
// database).
StoreOptions checked_options(StoreOptions options, std::string_view store);

}  // namespace docket::sqlite::detail

#endif  // DOCKET_PROVIDERS_SQLITE_SQLITE_OPTIONS_H_
