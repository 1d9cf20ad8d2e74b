// The providers the outbox suite runs against. A new provider (PostgreSQL) adds its
// fixture here; the test files do not change.
#include "outbox_fixture.h"

namespace docket::conformance {

void PrintTo(const OutboxProviderCase& provider, std::ostream* os) {
  *os << provider.name;
}

std::vector<OutboxProviderCase> all_outbox_providers() {
  std::vector<OutboxProviderCase> cases{{"memory", make_memory_outbox_fixture}};
#if DOCKET_HAVE_SQLITE
  cases.push_back({"sqlite_file", make_sqlite_file_outbox_fixture});
  cases.push_back({"sqlite_memory", make_sqlite_memory_outbox_fixture});
#endif
  return cases;
}

}  // namespace docket::conformance
