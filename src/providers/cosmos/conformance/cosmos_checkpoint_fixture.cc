// The Cosmos DB provider under the checkpoint suite (tests/conformance/checkpoint): stores
// opened by URL on a database of its own on the test server of DOCKET_TEST_COSMOS_URL.
#include "conformance/checkpoint/checkpoint_fixture.h"
#include "conformance/fixture_registry.h"
#include "providers/cosmos/tests/cosmos_database.h"

namespace docket::conformance {
namespace {

const FixtureRegistrar<CheckpointCase> kCosmosCheckpointCase{
    {.name = "cosmos", .provider = "cosmos", .make = [] {
       return std::unique_ptr<CheckpointFixture>(
           std::make_unique<UrlCheckpointFixture<test_support::CosmosDatabase>>());
     }}};

}  // namespace
}  // namespace docket::conformance
