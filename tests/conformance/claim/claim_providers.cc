// The providers the claim-inbox suite runs against. A new provider adds its fixture
// here; the test files do not change.
#include "claim_fixture.h"

namespace docket::conformance {

void PrintTo(const ClaimProviderCase& provider, std::ostream* os) {
  *os << provider.name;
}

std::vector<ClaimProviderCase> all_claim_providers() {
  std::vector<ClaimProviderCase> cases{{"memory", make_memory_claim_fixture}};
#if DOCKET_HAVE_SQLITE
  cases.push_back({"sqlite", make_sqlite_claim_fixture});
#endif
#if DOCKET_HAVE_POSTGRES
  cases.push_back({"postgres", make_postgres_claim_fixture});
#endif
  return cases;
}

std::vector<ClaimProviderCase> multi_process_claim_providers() {
  std::vector<ClaimProviderCase> cases;
#if DOCKET_HAVE_SQLITE
  cases.push_back({"sqlite", make_sqlite_claim_fixture});
#endif
#if DOCKET_HAVE_POSTGRES
  cases.push_back({"postgres", make_postgres_claim_fixture});
#endif
  return cases;
}

}  // namespace docket::conformance
