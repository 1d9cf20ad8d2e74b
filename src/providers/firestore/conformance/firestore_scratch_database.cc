// A throwaway Firestore database for the tests that run on every provider
// (tests/support/scratch_database.h): a collection prefix of its own on the Firestore emulator of
// DOCKET_TEST_FIRESTORE_URL.
#include "conformance/fixture_registry.h"
#include "providers/firestore/tests/firestore_collections.h"
#include "support/scratch_database.h"

namespace docket::test_support {
namespace {

const conformance::FixtureRegistrar<ScratchDatabaseCase> kFirestoreScratchDatabase{
    {.name = "firestore", .provider = "firestore", .make = [] {
       return std::unique_ptr<ScratchDatabase>(
           std::make_unique<UrlScratchDatabase<FirestoreCollections>>());
     }}};

}  // namespace
}  // namespace docket::test_support
