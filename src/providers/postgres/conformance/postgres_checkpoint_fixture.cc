// The PostgreSQL provider under the checkpoint suite (tests/conformance/checkpoint): stores
// opened by URL on a schema of its own on the server of DOCKET_TEST_POSTGRES_URL.
#include "conformance/checkpoint/checkpoint_fixture.h"
#include "conformance/fixture_registry.h"
#include "providers/postgres/tests/postgres_schema.h"

namespace docket::conformance {
namespace {

const FixtureRegistrar<CheckpointCase> kPostgresCheckpointCase{
    {.name = "postgres", .provider = "postgres", .make = [] {
       return std::unique_ptr<CheckpointFixture>(
           std::make_unique<UrlCheckpointFixture<test_support::PostgresSchema>>());
     }}};

}  // namespace
}  // namespace docket::conformance
