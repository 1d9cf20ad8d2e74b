// The Cosmos DB provider under the claim-inbox suite (tests/conformance/claim): a
// database of its own per fixture on the test server of DOCKET_TEST_COSMOS_URL (deleted
// with the fixture), which other processes reach by the same URL. A missing
// DOCKET_TEST_COSMOS_URL fails every case.
#include "conformance/claim/claim_fixture.h"
#include "conformance/fixture_registry.h"
#include "docket/stores/open_store.h"
#include "providers/cosmos/tests/cosmos_database.h"

namespace docket::conformance {
namespace {

class CosmosClaimFixture final : public ClaimFixture {
 public:
  std::unique_ptr<ClaimInboxStore> open(const Clock& clock) override {
    return open_claim_inbox_store(database_.url(), clock);
  }
  std::optional<std::string> shared_url() const override { return database_.url(); }

 private:
  test_support::CosmosDatabase database_;
};

const FixtureRegistrar<ClaimProviderCase> kCosmosClaimCase{
    {.name = "cosmos",
     .provider = "cosmos",
     .make = [] { return std::unique_ptr<ClaimFixture>(std::make_unique<CosmosClaimFixture>()); },
     .multi_process = true}};

}  // namespace
}  // namespace docket::conformance
