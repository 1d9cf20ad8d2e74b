// A throwaway Cosmos DB database for the tests that run on every provider
// (tests/support/scratch_database.h): a database of its own on the test server of
// DOCKET_TEST_COSMOS_URL.
#include "conformance/fixture_registry.h"
#include "providers/cosmos/tests/cosmos_database.h"
#include "support/scratch_database.h"

namespace docket::test_support {
namespace {

const conformance::FixtureRegistrar<ScratchDatabaseCase> kCosmosScratchDatabase{
    {.name = "cosmos", .provider = "cosmos", .make = [] {
       return std::unique_ptr<ScratchDatabase>(
           std::make_unique<UrlScratchDatabase<CosmosDatabase>>());
     }}};

}  // namespace
}  // namespace docket::test_support
