// The DynamoDB provider under the checkpoint suite (tests/conformance/checkpoint): stores
// opened by URL on a table prefix of its own on the DynamoDB Local server of
// DOCKET_TEST_DYNAMODB_URL.
#include "conformance/checkpoint/checkpoint_fixture.h"
#include "conformance/fixture_registry.h"
#include "providers/dynamodb/tests/dynamodb_tables.h"

namespace docket::conformance {
namespace {

const FixtureRegistrar<CheckpointCase> kDynamoDbCheckpointCase{
    {.name = "dynamodb", .provider = "dynamodb", .make = [] {
       return std::unique_ptr<CheckpointFixture>(
           std::make_unique<UrlCheckpointFixture<test_support::DynamoDbTables>>());
     }}};

}  // namespace
}  // namespace docket::conformance
