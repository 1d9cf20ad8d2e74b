// The outbox suite runs against every provider of this build that offers an outbox
// store: one registering it without a fixture for this suite fails here, naming it.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "conformance/fixture_registry.h"
#include "conformance/outbox_fixture.h"

namespace docket::conformance {
namespace {

TEST(SuiteCoverage, EveryProviderOfferingAnOutboxStoreRunsTheOutboxSuite) {
  EXPECT_THAT(providers_offering_without_a_case<OutboxProviderCase>(
                  [](const providers::ProviderRegistration& p) { return p.outbox != nullptr; }),
              ::testing::IsEmpty())
      << "add src/providers/<name>/conformance/<name>_outbox_fixture.cc";
}

}  // namespace
}  // namespace docket::conformance
