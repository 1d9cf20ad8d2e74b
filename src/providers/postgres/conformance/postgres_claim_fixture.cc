// The PostgreSQL provider under the claim-inbox suite (tests/conformance/claim): a
// schema of its own per fixture on the server of DOCKET_TEST_POSTGRES_URL, which other
// processes reach by the same URL.
#include "conformance/claim/claim_fixture.h"
#include "conformance/fixture_registry.h"
#include "docket/postgres/claim_inbox_store.h"
#include "providers/postgres/tests/postgres_schema.h"

namespace docket::conformance {
namespace {

class PostgresClaimFixture final : public ClaimFixture {
 public:
  std::unique_ptr<ClaimInboxStore> open(const Clock& clock) override {
    return postgres::open_claim_inbox_store(postgres::StoreOptions{.conninfo = schema_.url()},
                                            clock);
  }
  std::optional<std::string> shared_url() const override { return schema_.url(); }

 private:
  test_support::PostgresSchema schema_;
};

const FixtureRegistrar<ClaimProviderCase> kPostgresClaimCase{
    {.name = "postgres",
     .provider = "postgres",
     .make = [] { return std::unique_ptr<ClaimFixture>(std::make_unique<PostgresClaimFixture>()); },
     .multi_process = true}};

}  // namespace
}  // namespace docket::conformance
