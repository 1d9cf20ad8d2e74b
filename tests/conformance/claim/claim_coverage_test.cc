// The claim-inbox suite runs against every provider of this build that offers a claim
// inbox: one registering it without a fixture for this suite fails here, naming it.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "conformance/claim/claim_fixture.h"
#include "conformance/fixture_registry.h"

namespace docket::conformance {
namespace {

TEST(SuiteCoverage, EveryProviderOfferingAClaimInboxRunsTheClaimSuite) {
  EXPECT_THAT(
      providers_offering_without_a_case<ClaimProviderCase>(
          [](const providers::ProviderRegistration& p) { return p.claim_inbox != nullptr; }),
      ::testing::IsEmpty())
      << "add src/providers/<name>/conformance/<name>_claim_fixture.cc";
}

}  // namespace
}  // namespace docket::conformance
