// Where tests find the real DynamoDB server (AWS DynamoDB Local) they run against.
//
// scripts/test.sh starts a throwaway server (scripts/dynamodb-start.sh) and exports its
// store URL as DOCKET_TEST_DYNAMODB_URL. A test that needs DynamoDB fails, never skips,
// when the variable is missing: a suite that silently ran nothing would look like a pass.
//
// Thread-safety: may be called from any thread.
#ifndef DOCKET_TESTS_SUPPORT_DYNAMODB_ENV_H_
#define DOCKET_TESTS_SUPPORT_DYNAMODB_ENV_H_

#include <string>
#include <string_view>

namespace docket::test_support {

inline constexpr std::string_view kDynamoDbUrlVariable = "DOCKET_TEST_DYNAMODB_URL";

// The value of DOCKET_TEST_DYNAMODB_URL (dynamodb://127.0.0.1:PORT?region=us-east-1).
// Throws std::runtime_error, which fails the calling test, saying how to start the
// server when it is unset or empty.
std::string dynamodb_test_url();

}  // namespace docket::test_support

#endif  // DOCKET_TESTS_SUPPORT_DYNAMODB_ENV_H_
