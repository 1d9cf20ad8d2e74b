#include "providers/store_url.h"

#include "docket/error.h"

namespace docket::providers {
namespace {

constexpr std::string_view kSchemes =
    "memory:, sqlite:///path/to/file.db, sqlite::memory:, postgresql://user@host:port/db"
#if !DOCKET_HAVE_SQLITE
    " (sqlite: not built: configure with -DDOCKET_PROVIDER_SQLITE=ON)"
#endif
#if !DOCKET_HAVE_POSTGRES
    " (postgresql: not built: configure with -DDOCKET_PROVIDER_POSTGRES=ON)"
#endif
    ;

[[noreturn]] void unknown(std::string_view url, std::string_view what, std::string_view why) {
  throw ConfigurationError(std::string(what) + " URL '" + std::string(url) + "' " +
                           std::string(why) + "; use one of: " + std::string(kSchemes));
}

}  // namespace

StoreUrl parse_store_url(std::string_view url, std::string_view what) {
  if (url == "memory:") {
    return {StoreUrl::Kind::kMemory, {}};
  }
  if (url.starts_with("sqlite:")) {
#if DOCKET_HAVE_SQLITE
    std::string path;
    if (url == "sqlite::memory:") {
      path = ":memory:";
    } else if (url.starts_with("sqlite://")) {
      path = std::string(url.substr(9));
    }
    if (path.empty()) {
      unknown(url, what, "names no SQLite database");
    }
    return {StoreUrl::Kind::kSqlite, path};
#else
    unknown(url, what, "needs the SQLite provider, which this build leaves out");
#endif
  }
  if (url.starts_with("postgresql://") || url.starts_with("postgres://")) {
#if DOCKET_HAVE_POSTGRES
    return {StoreUrl::Kind::kPostgres, std::string(url)};
#else
    unknown(url, what, "needs the PostgreSQL provider, which this build leaves out");
#endif
  }
  unknown(url, what, "has an unknown scheme");
}

}  // namespace docket::providers
