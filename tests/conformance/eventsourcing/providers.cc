// The providers the suites run against. A new provider adds its fixture here; the test
// files do not change.
#include "docket/error.h"
#include "fixture.h"

namespace docket::conformance::eventsourcing {

std::vector<ProviderCase> all_providers() {
  return {
      {"memory", make_memory_fixture},
#ifdef DOCKET_HAVE_SQLITE
      {"sqlite_file", make_sqlite_fixture},
#endif
#ifdef DOCKET_HAVE_POSTGRES
      {"postgres", make_postgres_fixture},
#endif
  };
}

std::vector<ProviderCase> late_commit_providers() {
  // SQLite is not listed: its writers hold the database's single write lock from the
  // position's assignment to the commit, so no append is ever in flight beside another
  // (a second append waits for the lock), and positions become visible in ascending
  // order.
  return {
#ifdef DOCKET_HAVE_POSTGRES
      {"postgres", make_postgres_fixture},
#endif
  };
}

std::unique_ptr<PendingAppend> StoreFixture::begin_pending_append(EventStore& store,
                                                                  const StreamId&,
                                                                  const NewEvent&) {
  throw ConfigurationError(std::string(store.provider_name()) +
                           " has no in-flight appends: only providers listed in "
                           "late_commit_providers() implement begin_pending_append.");
}

}  // namespace docket::conformance::eventsourcing
