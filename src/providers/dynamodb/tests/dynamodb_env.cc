#include "providers/dynamodb/tests/dynamodb_env.h"

#include <cstdlib>
#include <stdexcept>

namespace docket::test_support {

std::string dynamodb_test_url() {
  const char* url = std::getenv(std::string(kDynamoDbUrlVariable).c_str());
  if (url == nullptr || *url == '\0') {
    throw std::runtime_error(
        std::string(kDynamoDbUrlVariable) +
        " is not set, and this test needs a real DynamoDB server (DynamoDB Local). Start "
        "the throwaway one and export its URL:\n"
        "  export DOCKET_TEST_DYNAMODB_URL=$(scripts/dynamodb-start.sh)\n"
        "(scripts/dynamodb-stop.sh stops it; scripts/test.sh does both by itself)");
  }
  return url;
}

}  // namespace docket::test_support
