#include "docket/open_outbox_store.h"

#include "docket/error.h"
#include "docket/memory/store.h"
#include "providers/store_url.h"
#if DOCKET_HAVE_SQLITE
#include "docket/sqlite/store.h"
#endif

namespace docket {

std::unique_ptr<OutboxStore> open_outbox_store(std::string_view url, const Clock& clock) {
  const auto parsed = providers::parse_store_url(url, "outbox store");
#if DOCKET_HAVE_SQLITE
  if (parsed.kind == providers::StoreUrl::Kind::kSqlite) {
    return sqlite::open_outbox_store(sqlite::StoreOptions{.path = parsed.path}, clock);
  }
#endif
  if (parsed.kind == providers::StoreUrl::Kind::kPostgres) {
    throw ConfigurationError("outbox store URL '" + std::string(url) +
                             "': the PostgreSQL outbox store is not available in this release; "
                             "use a sqlite:// or memory: outbox");
  }
  return memory::open_outbox_store(clock);
}

}  // namespace docket
