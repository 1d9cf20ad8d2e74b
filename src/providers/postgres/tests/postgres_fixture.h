// Shared by the PostgreSQL integration tests: a connection to the test server and a
// uniquely named scratch table that every connection can see and that is dropped
// afterwards (tests run in parallel processes against one database).
#ifndef DOCKET_PROVIDERS_POSTGRES_TESTS_POSTGRES_FIXTURE_H_
#define DOCKET_PROVIDERS_POSTGRES_TESTS_POSTGRES_FIXTURE_H_

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "providers/postgres/postgres_connection.h"
#include "providers/postgres/postgres_exec.h"
#include "providers/postgres/tests/postgres_env.h"
#include "support/unique_name.h"

namespace docket::postgres::detail {

// A table `<name> (id text PRIMARY KEY, n bigint)` that exists for the object's life.
class ScratchTable {
 public:
  ScratchTable(const std::string& url, std::string_view prefix)
      : admin_(url), name_(test_support::unique_name(prefix)) {
    exec_script(admin_, "CREATE TABLE " + name_ + " (id text PRIMARY KEY, n bigint)");
  }
  ~ScratchTable() { PQclear(PQexec(admin_.native(), ("DROP TABLE " + name_).c_str())); }
  ScratchTable(const ScratchTable&) = delete;
  ScratchTable& operator=(const ScratchTable&) = delete;

  const std::string& name() const { return name_; }
  // Rows as seen by a connection outside the transaction under test.
  std::int64_t committed_rows() {
    return exec(admin_, "SELECT count(*) FROM " + name_).int64(0, 0);
  }

 private:
  Connection admin_;
  std::string name_;
};

class PostgresTest : public ::testing::Test {
 protected:
  std::string url_ = test_support::postgres_test_url();
};

}  // namespace docket::postgres::detail

#endif  // DOCKET_PROVIDERS_POSTGRES_TESTS_POSTGRES_FIXTURE_H_
