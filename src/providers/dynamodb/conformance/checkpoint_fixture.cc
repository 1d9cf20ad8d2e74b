// The DynamoDB provider under the checkpoint suite (tests/conformance/checkpoint): a
// table prefix of its own per fixture on the DynamoDB Local server of
// DOCKET_TEST_DYNAMODB_URL (tables deleted with the fixture), opened by its URL.
#include "conformance/checkpoint/checkpoint_fixture.h"

#include "conformance/fixture_registry.h"
#include "docket/open_checkpoint_store.h"
#include "providers/dynamodb/tests/dynamodb_tables.h"

namespace docket::conformance {
namespace {

class DynamoDbCheckpointFixture final : public CheckpointFixture {
 public:
  std::unique_ptr<CheckpointStore> open(const Clock& clock) override {
    return open_checkpoint_store(tables_.url(), clock);
  }

 private:
  test_support::DynamoDbTables tables_;
};

const FixtureRegistrar<CheckpointCase> kDynamoDbCheckpointCase{
    {.name = "dynamodb", .provider = "dynamodb", .make = [] {
       return std::unique_ptr<CheckpointFixture>(std::make_unique<DynamoDbCheckpointFixture>());
     }}};

}  // namespace
}  // namespace docket::conformance
