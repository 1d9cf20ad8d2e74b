#include "docket/open_inbox_store.h"

#include "docket/memory/store.h"
#include "providers/store_url.h"
#if DOCKET_HAVE_SQLITE
#include "docket/sqlite/store.h"
#endif
#if DOCKET_HAVE_POSTGRES
#include "docket/postgres/store.h"
#endif

namespace docket {

std::unique_ptr<InboxStore> open_inbox_store(std::string_view url, const Clock& clock) {
  const auto parsed = providers::parse_store_url(url, "inbox store");
#if DOCKET_HAVE_SQLITE
  if (parsed.kind == providers::StoreUrl::Kind::kSqlite) {
    return sqlite::open_store(sqlite::StoreOptions{.path = parsed.path}, clock);
  }
#endif
#if DOCKET_HAVE_POSTGRES
  if (parsed.kind == providers::StoreUrl::Kind::kPostgres) {
    return postgres::open_store(parsed.path, clock);
  }
#endif
  return memory::open_store(clock);
}

}  // namespace docket
