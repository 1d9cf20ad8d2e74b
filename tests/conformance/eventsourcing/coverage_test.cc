// The event sourcing suites run against every provider of this build that offers an
// event, snapshot or saga store: one registering such a store without a fixture for
// these suites fails here, naming it. (Its saga tests then run wherever it registers
// a saga store: saga_providers().)
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "conformance/eventsourcing/fixture.h"
#include "conformance/fixture_registry.h"

namespace docket::conformance::eventsourcing {
namespace {

TEST(SuiteCoverage, EveryProviderOfferingAnEventSnapshotOrSagaStoreRunsTheseSuites) {
  EXPECT_THAT(
      providers_offering_without_a_case<ProviderCase>([](const providers::ProviderRegistration& p) {
        return p.event != nullptr || p.snapshot != nullptr || p.saga != nullptr;
      }),
      ::testing::IsEmpty())
      << "add src/providers/<name>/conformance/<name>_eventsourcing_fixture.cc";
}

}  // namespace
}  // namespace docket::conformance::eventsourcing
