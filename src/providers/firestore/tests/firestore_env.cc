#include "providers/firestore/tests/firestore_env.h"

#include <cstdlib>
#include <stdexcept>

namespace docket::test_support {

std::string firestore_test_url() {
  const char* url = std::getenv(std::string(kFirestoreUrlVariable).c_str());
  if (url == nullptr || *url == '\0') {
    throw std::runtime_error(
        std::string(kFirestoreUrlVariable) +
        " is not set, and this test needs a real Firestore server (the Cloud Firestore "
        "emulator, Debian package google-cloud-cli-firestore-emulator). Start the throwaway "
        "one and export its URL:\n"
        "  export DOCKET_TEST_FIRESTORE_URL=$(scripts/firestore-start.sh)\n"
        "(scripts/firestore-stop.sh stops it; scripts/test.sh does both by itself)");
  }
  return url;
}

}  // namespace docket::test_support
