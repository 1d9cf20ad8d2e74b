// A throwaway Redis database for the tool's tests that run on every provider offering
// what they need (tests/support/scratch_database.h, tests/tool/scratch_stores.h): a key
// prefix of its own on the Redis server of DOCKET_TEST_REDIS_URL.
#include "conformance/fixture_registry.h"
#include "providers/redis/tests/redis_database.h"
#include "support/scratch_database.h"

namespace docket::test_support {
namespace {

const conformance::FixtureRegistrar<ScratchDatabaseCase> kRedisScratchDatabase{
    {.name = "redis", .provider = "redis", .make = [] {
       return std::unique_ptr<ScratchDatabase>(
           std::make_unique<UrlScratchDatabase<RedisDatabase>>());
     }}};

}  // namespace
}  // namespace docket::test_support
