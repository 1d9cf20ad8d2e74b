#include "docket/open_inbox_store.h"

#include <string>

#include "docket/error.h"
#include "docket/memory/store.h"
#if DOCKET_HAVE_SQLITE
#include "docket/sqlite/store.h"
#endif

namespace docket {
namespace {

constexpr std::string_view kSchemes =
    "memory:, sqlite:///path/to/file.db, sqlite::memory:"
#if !DOCKET_HAVE_SQLITE
    " (sqlite: not built: configure with -DDOCKET_PROVIDER_SQLITE=ON)"
#endif
    ;

[[noreturn]] void unknown(std::string_view url, std::string_view why) {
  throw ConfigurationError("inbox store URL '" + std::string(url) + "' " + std::string(why) +
                           "; use one of: " + std::string(kSchemes));
}

}  // namespace

std::unique_ptr<InboxStore> open_inbox_store(std::string_view url, const Clock& clock) {
  if (url == "memory:") {
    return memory::open_store(clock);
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
      unknown(url, "names no SQLite database");
    }
    return sqlite::open_store(sqlite::StoreOptions{.path = path}, clock);
#else
    unknown(url, "needs the SQLite provider, which this build leaves out");
#endif
  }
  unknown(url, "has an unknown scheme");
}

}  // namespace docket
