#include "claim_fixture.h"
#include "docket/memory/claim_inbox_store.h"

namespace docket::conformance {
namespace {

// One memory database per fixture, opened with the first store's clock.
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

}  // namespace

std::unique_ptr<ClaimFixture> make_memory_claim_fixture() {
  return std::make_unique<MemoryClaimFixture>();
}

}  // namespace docket::conformance
