// The PostgreSQL provider under the checkpoint suite (tests/conformance/checkpoint): a
// schema of its own per fixture on the server of DOCKET_TEST_POSTGRES_URL, opened by
// its URL.
#include "conformance/checkpoint/checkpoint_fixture.h"

#include "conformance/fixture_registry.h"
#include "docket/open_checkpoint_store.h"
#include "support/postgres_schema.h"

namespace docket::conformance {
namespace {

class PostgresCheckpointFixture final : public CheckpointFixture {
 public:
  std::unique_ptr<CheckpointStore> open(const Clock& clock) override {
    return open_checkpoint_store(schema_.url(), clock);
  }

 private:
  test_support::PostgresSchema schema_;
};

const FixtureRegistrar<CheckpointCase> kPostgresCheckpointCase{
    {.name = "postgres", .provider = "postgres", .make = [] {
       return std::unique_ptr<CheckpointFixture>(std::make_unique<PostgresCheckpointFixture>());
     }}};

}  // namespace
}  // namespace docket::conformance
