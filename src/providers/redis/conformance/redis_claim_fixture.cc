// The Redis provider under the claim-inbox suite (tests/conformance/claim): a key prefix
// of its own per fixture on the Redis server of DOCKET_TEST_REDIS_URL (keys deleted with
// the fixture), which other processes reach by the same URL. A missing
// DOCKET_TEST_REDIS_URL fails every case.
#include "conformance/claim/claim_fixture.h"
#include "conformance/fixture_registry.h"
#include "docket/stores/open_store.h"
#include "providers/redis/tests/redis_database.h"

namespace docket::conformance {
namespace {

class RedisClaimFixture final : public ClaimFixture {
 public:
  std::unique_ptr<ClaimInboxStore> open(const Clock& clock) override {
    return open_claim_inbox_store(database_.url(), clock);
  }
  std::optional<std::string> shared_url() const override { return database_.url(); }

 private:
  test_support::RedisDatabase database_;
};

const FixtureRegistrar<ClaimProviderCase> kRedisClaimCase{
    {.name = "redis",
     .provider = "redis",
     .make = [] { return std::unique_ptr<ClaimFixture>(std::make_unique<RedisClaimFixture>()); },
     .multi_process = true}};

}  // namespace
}  // namespace docket::conformance
