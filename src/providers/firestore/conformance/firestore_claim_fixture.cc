// The Firestore provider under the claim-inbox suite (tests/conformance/claim): a
// collection prefix of its own per fixture on the Firestore emulator of
// DOCKET_TEST_FIRESTORE_URL (documents deleted with the fixture), which other processes
// reach by the same URL. A missing DOCKET_TEST_FIRESTORE_URL fails every case.
#include "conformance/claim/claim_fixture.h"
#include "conformance/fixture_registry.h"
#include "docket/stores/open_store.h"
#include "providers/firestore/tests/firestore_collections.h"

namespace docket::conformance {
namespace {

class FirestoreClaimFixture final : public ClaimFixture {
 public:
  std::unique_ptr<ClaimInboxStore> open(const Clock& clock) override {
    return open_claim_inbox_store(collections_.url(), clock);
  }
  std::optional<std::string> shared_url() const override { return collections_.url(); }

 private:
  test_support::FirestoreCollections collections_;
};

const FixtureRegistrar<ClaimProviderCase> kFirestoreClaimCase{
    {.name = "firestore",
     .provider = "firestore",
     .make =
         [] { return std::unique_ptr<ClaimFixture>(std::make_unique<FirestoreClaimFixture>()); },
     .multi_process = true}};

}  // namespace
}  // namespace docket::conformance
