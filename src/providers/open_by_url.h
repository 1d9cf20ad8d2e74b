// Opening any store from a URL (the schemes are listed in docket/open_inbox_store.h):
// the URL names a provider and its database, and that provider's factory for the
// store opens it. Every provider names its factories alike and takes its database the
// same way (memory: a memory::Database; sqlite: sqlite::StoreOptions and the clock;
// postgres: postgres::StoreOptions and the clock), so one generic callable reaches all
// of them, the unqualified call finding the provider's factory by argument-dependent
// lookup:
//
//   return providers::open_by_url(url, "event store", clock,
//                                 [](const auto&... db) { return open_event_store(db...); });
//
// Thread-safety: as the factories it calls.
#ifndef DOCKET_PROVIDERS_OPEN_BY_URL_H_
#define DOCKET_PROVIDERS_OPEN_BY_URL_H_

#include <string_view>

#include "docket/clock.h"
#include "docket/memory/database.h"
#include "docket/memory/event_store.h"
#include "docket/memory/saga_store.h"
#include "docket/memory/snapshot_store.h"
#include "docket/memory/store.h"
#include "providers/store_url.h"
#if DOCKET_HAVE_SQLITE
#include "docket/sqlite/event_store.h"
#include "docket/sqlite/saga_store.h"
#include "docket/sqlite/snapshot_store.h"
#include "docket/sqlite/store.h"
#endif
#if DOCKET_HAVE_POSTGRES
#include "docket/postgres/event_store.h"
#include "docket/postgres/saga_store.h"
#include "docket/postgres/snapshot_store.h"
#include "docket/postgres/store.h"
#endif

namespace docket::providers {

// Throws ConfigurationError (from parse_store_url) naming the URL and `what` ("event
// store", ...) when the URL names no provider of this build. A memory: URL opens a
// database of its own.
template <typename Open>
auto open_by_url(std::string_view url, std::string_view what, const Clock& clock,
                 const Open& open) {
  const StoreUrl parsed = parse_store_url(url, what);
#if DOCKET_HAVE_SQLITE
  if (parsed.kind == StoreUrl::Kind::kSqlite) {
    return open(sqlite::StoreOptions{.path = parsed.path}, clock);
  }
#endif
#if DOCKET_HAVE_POSTGRES
  if (parsed.kind == StoreUrl::Kind::kPostgres) {
    return open(postgres::StoreOptions{.conninfo = parsed.path}, clock);
  }
#endif
  return open(memory::open_database(clock));
}

}  // namespace docket::providers

#endif  // DOCKET_PROVIDERS_OPEN_BY_URL_H_
