// The Redis provider under the checkpoint suite (tests/conformance/checkpoint): stores
// opened by URL on a key prefix of its own on the Redis server of DOCKET_TEST_REDIS_URL.
#include "conformance/checkpoint/checkpoint_fixture.h"
#include "conformance/fixture_registry.h"
#include "providers/redis/tests/redis_database.h"

namespace docket::conformance {
namespace {

const FixtureRegistrar<CheckpointCase> kRedisCheckpointCase{
    {.name = "redis", .provider = "redis", .make = [] {
       return std::unique_ptr<CheckpointFixture>(
           std::make_unique<UrlCheckpointFixture<test_support::RedisDatabase>>());
     }}};

}  // namespace
}  // namespace docket::conformance
