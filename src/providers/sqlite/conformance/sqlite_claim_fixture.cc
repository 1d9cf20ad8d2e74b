// The SQLite provider under the claim-inbox suite (tests/conformance/claim): a fresh
// database file in a temporary directory, removed with the fixture; other processes
// open the same file through its URL.
#include "conformance/claim/claim_fixture.h"
#include "conformance/eventsourcing/temp_dir.h"
#include "conformance/fixture_registry.h"
#include "docket/sqlite/claim_inbox_store.h"

namespace docket::conformance {
namespace {

class SqliteClaimFixture final : public ClaimFixture {
 public:
  SqliteClaimFixture() { options_.path = dir_.file("claims.db"); }

  std::unique_ptr<ClaimInboxStore> open(const Clock& clock) override {
    return sqlite::open_claim_inbox_store(options_, clock);
  }
  std::optional<std::string> shared_url() const override { return "sqlite://" + options_.path; }

 private:
  eventsourcing::TempDir dir_;
  sqlite::StoreOptions options_;
};

const FixtureRegistrar<ClaimProviderCase> kSqliteClaimCase{
    {.name = "sqlite",
     .provider = "sqlite",
     .make = [] { return std::unique_ptr<ClaimFixture>(std::make_unique<SqliteClaimFixture>()); },
     .multi_process = true}};

}  // namespace
}  // namespace docket::conformance
