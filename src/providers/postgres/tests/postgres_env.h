// Where tests find the real PostgreSQL server they run against.
//
// scripts/test.sh starts a throwaway server (scripts/pg-start.sh) and exports its URL as
// DOCKET_TEST_POSTGRES_URL. A test that needs PostgreSQL fails, never skips, when the
// variable is missing: a suite that silently ran nothing would look like a pass.
//
// Thread-safety: both functions may be called from any thread.
#ifndef DOCKET_TESTS_SUPPORT_POSTGRES_ENV_H_
#define DOCKET_TESTS_SUPPORT_POSTGRES_ENV_H_

#include <string>
#include <string_view>

namespace docket::test_support {

inline constexpr std::string_view kPostgresUrlVariable = "DOCKET_TEST_POSTGRES_URL";

// The value of DOCKET_TEST_POSTGRES_URL. Throws std::runtime_error, which fails the
// calling test, saying how to start the server when it is unset or empty.
std::string postgres_test_url();

// `<prefix>_<pid>_<n>`: a name (table, schema, consumer id) no other test process or
// earlier call uses, so that tests sharing one database can run in parallel. Lowercase
// ASCII when `prefix` is, hence usable unquoted as an SQL identifier.
std::string unique_name(std::string_view prefix);

}  // namespace docket::test_support

#endif  // DOCKET_TESTS_SUPPORT_POSTGRES_ENV_H_
