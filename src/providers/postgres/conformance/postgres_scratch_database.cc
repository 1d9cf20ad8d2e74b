// A throwaway PostgreSQL database for the tests that run on every provider
// (tests/support/scratch_database.h): a schema of its own on the server of
// DOCKET_TEST_POSTGRES_URL.
#include "conformance/fixture_registry.h"
#include "providers/postgres/tests/postgres_schema.h"
#include "support/scratch_database.h"

namespace docket::test_support {
namespace {

const conformance::FixtureRegistrar<ScratchDatabaseCase> kPostgresScratchDatabase{
    {.name = "postgres", .provider = "postgres", .make = [] {
       return std::unique_ptr<ScratchDatabase>(
           std::make_unique<UrlScratchDatabase<PostgresSchema>>());
     }}};

}  // namespace
}  // namespace docket::test_support
