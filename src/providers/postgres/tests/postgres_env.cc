#include "providers/postgres/tests/postgres_env.h"

#include <cstdlib>
#include <stdexcept>

namespace docket::test_support {

std::string postgres_test_url() {
  const char* url = std::getenv(std::string(kPostgresUrlVariable).c_str());
  if (url == nullptr || *url == '\0') {
    throw std::runtime_error(
        std::string(kPostgresUrlVariable) +
        " is not set, and this test needs a real PostgreSQL server. Start the throwaway "
        "one and export its URL:\n"
        "  export DOCKET_TEST_POSTGRES_URL=$(scripts/pg-start.sh)\n"
        "(scripts/pg-stop.sh stops it; scripts/test.sh does both by itself)");
  }
  return url;
}

}  // namespace docket::test_support
