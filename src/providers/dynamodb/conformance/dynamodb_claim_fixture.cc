// The DynamoDB provider under the claim-inbox suite (tests/conformance/claim): a table
// prefix of its own per fixture on the DynamoDB Local server of
// DOCKET_TEST_DYNAMODB_URL (tables deleted with the fixture), which other processes
// reach by the same URL. A missing DOCKET_TEST_DYNAMODB_URL fails every case.
#include "conformance/claim/claim_fixture.h"
#include "conformance/fixture_registry.h"
#include "docket/stores/open_store.h"
#include "providers/dynamodb/tests/dynamodb_tables.h"

namespace docket::conformance {
namespace {

class DynamoDbClaimFixture final : public ClaimFixture {
 public:
  std::unique_ptr<ClaimInboxStore> open(const Clock& clock) override {
    return open_claim_inbox_store(tables_.url(), clock);
  }
  std::optional<std::string> shared_url() const override { return tables_.url(); }

 private:
  test_support::DynamoDbTables tables_;
};

const FixtureRegistrar<ClaimProviderCase> kDynamoDbClaimCase{
    {.name = "dynamodb",
     .provider = "dynamodb",
     .make = [] { return std::unique_ptr<ClaimFixture>(std::make_unique<DynamoDbClaimFixture>()); },
     .multi_process = true}};

}  // namespace
}  // namespace docket::conformance
