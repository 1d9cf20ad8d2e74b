// The Firestore provider under the checkpoint suite (tests/conformance/checkpoint): stores
// opened by URL on a collection prefix of its own on the Firestore emulator of
// DOCKET_TEST_FIRESTORE_URL.
#include "conformance/checkpoint/checkpoint_fixture.h"
#include "conformance/fixture_registry.h"
#include "providers/firestore/tests/firestore_collections.h"

namespace docket::conformance {
namespace {

const FixtureRegistrar<CheckpointCase> kFirestoreCheckpointCase{
    {.name = "firestore", .provider = "firestore", .make = [] {
       return std::unique_ptr<CheckpointFixture>(
           std::make_unique<UrlCheckpointFixture<test_support::FirestoreCollections>>());
     }}};

}  // namespace
}  // namespace docket::conformance
