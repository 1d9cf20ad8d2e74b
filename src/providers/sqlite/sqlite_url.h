// The SQLite store URLs: sqlite:///absolute/path.db (sqlite://relative.db is relative
// to the working directory) and sqlite::memory:, a private in-memory database.
//
// Thread-safety: pure function.
#ifndef DOCKET_PROVIDERS_SQLITE_SQLITE_URL_H_
#define DOCKET_PROVIDERS_SQLITE_SQLITE_URL_H_

#include <string>
#include <string_view>

namespace docket::sqlite::detail {

// The database `url` names, as StoreOptions::path takes it (":memory:" for
// sqlite::memory:); empty when it names none.
std::string path_of_url(std::string_view url);

}  // namespace docket::sqlite::detail

#endif  // DOCKET_PROVIDERS_SQLITE_SQLITE_URL_H_
