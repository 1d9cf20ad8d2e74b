#include "support/postgres_env.h"

#include <unistd.h>

#include <atomic>
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

std::string unique_name(std::string_view prefix) {
  static std::atomic<unsigned> counter{0};
  return std::string(prefix) + "_" + std::to_string(::getpid()) + "_" +
         std::to_string(counter.fetch_add(1));
}

}  // namespace docket::test_support
