// The providers the suites run against. A new provider adds its fixture here; the test
// files do not change.
#include "docket/error.h"
#include "fixture.h"

namespace docket::conformance::eventsourcing {

std::vector<ProviderCase> all_providers() {
  return {{"memory", make_memory_fixture}};
}

std::vector<ProviderCase> late_commit_providers() {
  // PostgreSQL joins here with its fixture's begin_pending_append.
  return {};
}

std::unique_ptr<PendingAppend> StoreFixture::begin_pending_append(EventStore& store,
                                                                  const StreamId&,
                                                                  const NewEvent&) {
  throw ConfigurationError(std::string(store.provider_name()) +
                           " has no in-flight appends: only providers listed in "
                           "late_commit_providers() implement begin_pending_append.");
}

}  // namespace docket::conformance::eventsourcing
