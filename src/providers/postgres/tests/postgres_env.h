// Where tests find the real PostgreSQL server they run against.
//
// scripts/test.sh starts a throwaway server (scripts/pg-start.sh) and exports its URL as
// DOCKET_TEST_POSTGRES_URL. A test that needs PostgreSQL fails, never skips, when the
// variable is missing: a suite that silently ran nothing would look like a pass.
//
// Thread-safety: postgres_test_url may be called from any thread.
#ifndef DOCKET_PROVIDERS_POSTGRES_TESTS_POSTGRES_ENV_H_
#define DOCKET_PROVIDERS_POSTGRES_TESTS_POSTGRES_ENV_H_

#include <string>
#include <string_view>

namespace docket::test_support {

inline constexpr std::string_view kPostgresUrlVariable = "DOCKET_TEST_POSTGRES_URL";

// The value of DOCKET_TEST_POSTGRES_URL. Throws std::runtime_error, which fails the
// calling test, saying how to start the server when it is unset or empty.
std::string postgres_test_url();

}  // namespace docket::test_support

#endif  // DOCKET_PROVIDERS_POSTGRES_TESTS_POSTGRES_ENV_H_
