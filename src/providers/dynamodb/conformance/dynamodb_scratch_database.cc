// A throwaway DynamoDB database for the tests that run on every provider
// (tests/support/scratch_database.h): a table prefix of its own on the DynamoDB Local server of
// DOCKET_TEST_DYNAMODB_URL.
#include "conformance/fixture_registry.h"
#include "providers/dynamodb/tests/dynamodb_tables.h"
#include "support/scratch_database.h"

namespace docket::test_support {
namespace {

const conformance::FixtureRegistrar<ScratchDatabaseCase> kDynamoDbScratchDatabase{
    {.name = "dynamodb", .provider = "dynamodb", .make = [] {
       return std::unique_ptr<ScratchDatabase>(
           std::make_unique<UrlScratchDatabase<DynamoDbTables>>());
     }}};

}  // namespace
}  // namespace docket::test_support
