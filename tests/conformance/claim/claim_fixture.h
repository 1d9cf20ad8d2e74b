// How the claim-inbox conformance suite reaches one provider: a fresh, empty database
// per fixture, and stores on it. Everything else goes through the SPI
// (docket/inbox/claim_inbox_store.h), unchanged for every provider; what a test needs beyond
// the basics it asks of store->capabilities().
#ifndef DOCKET_TESTS_CONFORMANCE_CLAIM_CLAIM_FIXTURE_H_
#define DOCKET_TESTS_CONFORMANCE_CLAIM_CLAIM_FIXTURE_H_

#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "docket/core/clock.h"
#include "docket/inbox/claim_inbox_store.h"

namespace docket::conformance {

class ClaimFixture {
 public:
  virtual ~ClaimFixture() = default;

  // A store on this fixture's database (fresh and empty on the first call; every call
  // opens onto the same database), stamping times from `clock`.
  virtual std::unique_ptr<ClaimInboxStore> open(const Clock& clock) = 0;

  // A URL another process can open (open_claim_inbox_store) onto the same database, or
  // nullopt when the database is process-local.
  virtual std::optional<std::string> shared_url() const = 0;
};

// One case of the suite, registered by its provider's fixture file
// (src/providers/<name>/conformance/<name>_claim_fixture.cc) with a FixtureRegistrar.
struct ClaimProviderCase {
  std::string name;      // the test-name suffix: "sqlite"
  std::string provider;  // what its stores' provider_name() returns: "sqlite"
  std::function<std::unique_ptr<ClaimFixture>()> make;
  // Other processes can open the fixture's database (shared_url() is set).
  bool multi_process = false;
};

void PrintTo(const ClaimProviderCase& provider, std::ostream* os);

// Every case the build's fixtures registered, and those whose stores other processes
// share.
std::vector<ClaimProviderCase> all_claim_providers();
std::vector<ClaimProviderCase> multi_process_claim_providers();

}  // namespace docket::conformance

#endif  // DOCKET_TESTS_CONFORMANCE_CLAIM_CLAIM_FIXTURE_H_
