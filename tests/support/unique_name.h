// Names no other test uses, so that tests sharing one server or database can run in
// parallel ctest processes.
//
// Thread-safety: unique_name may be called from any thread.
#ifndef DOCKET_TESTS_SUPPORT_UNIQUE_NAME_H_
#define DOCKET_TESTS_SUPPORT_UNIQUE_NAME_H_

#include <string>
#include <string_view>

namespace docket::test_support {

// `<prefix>_<pid>_<n>`: a name (table, schema, consumer id) no other test process or
// earlier call uses. Lowercase ASCII when `prefix` is, hence usable unquoted as an SQL
// identifier.
std::string unique_name(std::string_view prefix);

// `<pid>-<8 random hex digits>-<n>`: a suffix no test process, earlier or later, uses,
// also once the system hands this process's id to another. For names a server keeps
// beyond the test (a JetStream stream, an exchange, a topic): a process that reused an
// id and declared a name the server was still deleting failed ("error creating store
// for stream"). ASCII digits, letters and '-' only.
std::string unique_suffix();

}  // namespace docket::test_support

#endif  // DOCKET_TESTS_SUPPORT_UNIQUE_NAME_H_
