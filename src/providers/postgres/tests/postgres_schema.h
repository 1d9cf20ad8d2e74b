// A fresh PostgreSQL schema per fixture on the test server, so that tests in parallel
// ctest processes never see each other's tables: created (replacing a leftover of a
// crashed run with the same name) on construction, dropped with everything in it on
// destruction. url() opens connections whose search_path is that schema alone.
//
// Thread-safety: construct and destroy on one thread; url() is a constant.
#ifndef DOCKET_PROVIDERS_POSTGRES_TESTS_POSTGRES_SCHEMA_H_
#define DOCKET_PROVIDERS_POSTGRES_TESTS_POSTGRES_SCHEMA_H_

#include <string>

namespace docket::test_support {

class PostgresSchema {
 public:
  // Fails the test (std::runtime_error) when DOCKET_TEST_POSTGRES_URL is missing.
  PostgresSchema();
  ~PostgresSchema();
  PostgresSchema(const PostgresSchema&) = delete;
  PostgresSchema& operator=(const PostgresSchema&) = delete;

  // The server URL with options=-csearch_path=<schema>.
  const std::string& url() const noexcept { return url_; }

 private:
  std::string server_url_;
  std::string name_;
  std::string url_;
};

}  // namespace docket::test_support

#endif  // DOCKET_PROVIDERS_POSTGRES_TESTS_POSTGRES_SCHEMA_H_
