// The memory provider under the claim-inbox suite (tests/conformance/claim): one
// memory database per fixture, opened with the first store's clock.
#include <optional>

#include "conformance/claim/claim_fixture.h"
#include "conformance/fixture_registry.h"
#include "docket/memory/claim_inbox_store.h"

namespace docket::conformance {
namespace {

class MemoryClaimFixture final : public ClaimFixture {
 public:
  std::unique_ptr<ClaimInboxStore> open(const Clock& clock) override {
    if (!database_) {
      database_.emplace(memory::open_database(clock));
    }
    return memory::open_claim_inbox_store(*database_);
  }
  std::optional<std::string> shared_url() const override { return std::nullopt; }

 private:
  std::optional<memory::Database> database_;
};

const FixtureRegistrar<ClaimProviderCase> kMemoryClaimCase{
    {.name = "memory", .provider = "memory", .make = [] {
       return std::unique_ptr<ClaimFixture>(std::make_unique<MemoryClaimFixture>());
     }}};

}  // namespace
}  // namespace docket::conformance
