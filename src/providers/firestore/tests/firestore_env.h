// Where tests find the real Firestore server (Google's Cloud Firestore emulator) they run
// against.
//
// scripts/test.sh starts a throwaway emulator (scripts/firestore-start.sh) and exports
// its store URL as DOCKET_TEST_FIRESTORE_URL. A test that needs Firestore fails, never
// skips, when the variable is missing: a suite that silently ran nothing would look
// like a pass.
//
// Thread-safety: may be called from any thread.
#ifndef DOCKET_TESTS_SUPPORT_FIRESTORE_ENV_H_
#define DOCKET_TESTS_SUPPORT_FIRESTORE_ENV_H_

#include <string>
#include <string_view>

namespace docket::test_support {

inline constexpr std::string_view kFirestoreUrlVariable = "DOCKET_TEST_FIRESTORE_URL";

// The value of DOCKET_TEST_FIRESTORE_URL (firestore://127.0.0.1:PORT?project=docket-test).
// Throws std::runtime_error, which fails the calling test, saying how to start the
// emulator when it is unset or empty.
std::string firestore_test_url();

}  // namespace docket::test_support

#endif  // DOCKET_TESTS_SUPPORT_FIRESTORE_ENV_H_
