// The providers the suite runs against. A new provider adds its fixture here; the
// test files do not change.
#include "provider_fixture.h"

namespace docket::conformance {

void PrintTo(const ProviderCase& provider, std::ostream* os) {
  *os << provider.name;
}

std::vector<ProviderCase> all_providers() {
  std::vector<ProviderCase> cases{{"memory", make_memory_fixture}};
#if DOCKET_HAVE_SQLITE
  cases.push_back({"sqlite_file", make_sqlite_file_fixture});
  cases.push_back({"sqlite_memory", make_sqlite_memory_fixture});
#endif
#if DOCKET_HAVE_POSTGRES
  cases.push_back({"postgres", make_postgres_fixture});
#endif
  return cases;
}

std::vector<ProviderCase> multi_process_providers() {
  std::vector<ProviderCase> cases;
#if DOCKET_HAVE_SQLITE
  cases.push_back({"sqlite_file", make_sqlite_file_fixture});
#endif
#if DOCKET_HAVE_POSTGRES
  cases.push_back({"postgres", make_postgres_fixture});
#endif
  return cases;
}

}  // namespace docket::conformance
