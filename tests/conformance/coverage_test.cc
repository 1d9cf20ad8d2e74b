// The inbox and checkpoint suites run against every provider of this build that
// offers the store: a provider registering an inbox or checkpoint store without a
// fixture for its suite fails here, naming it.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "conformance/checkpoint/checkpoint_fixture.h"
#include "conformance/fixture_registry.h"
#include "conformance/provider_fixture.h"

namespace docket::conformance {
namespace {

TEST(SuiteCoverage, EveryProviderOfferingAnInboxStoreRunsTheInboxSuite) {
  EXPECT_THAT(providers_offering_without_a_case<ProviderCase>(
                  [](const providers::ProviderRegistration& p) { return p.inbox != nullptr; }),
              ::testing::IsEmpty())
      << "add src/providers/<name>/conformance/<name>_inbox_fixture.cc";
}

TEST(SuiteCoverage, EveryProviderOfferingACheckpointStoreRunsTheCheckpointSuite) {
  EXPECT_THAT(providers_offering_without_a_case<CheckpointCase>(
                  [](const providers::ProviderRegistration& p) { return p.checkpoint != nullptr; }),
              ::testing::IsEmpty())
      << "add src/providers/<name>/conformance/<name>_checkpoint_fixture.cc";
}

}  // namespace
}  // namespace docket::conformance
