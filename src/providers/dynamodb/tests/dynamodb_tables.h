// A table prefix of one's own on the DynamoDB test server, so that tests in parallel
// ctest processes never see each other's tables: url() is DOCKET_TEST_DYNAMODB_URL with
// a table_prefix no other process or earlier call uses. Every table under the prefix is
// deleted on construction (a leftover of a crashed run) and on destruction.
//
// Thread-safety: construct and destroy on one thread; url() is a constant.
#ifndef DOCKET_TESTS_SUPPORT_DYNAMODB_TABLES_H_
#define DOCKET_TESTS_SUPPORT_DYNAMODB_TABLES_H_

#include <string>

namespace docket::test_support {

class DynamoDbTables {
 public:
  // Fails the test (std::runtime_error) when DOCKET_TEST_DYNAMODB_URL is missing.
  DynamoDbTables();
  ~DynamoDbTables();
  DynamoDbTables(const DynamoDbTables&) = delete;
  DynamoDbTables& operator=(const DynamoDbTables&) = delete;

  // dynamodb://127.0.0.1:PORT?region=...&table_prefix=<prefix>
  const std::string& url() const noexcept { return url_; }
  const std::string& prefix() const noexcept { return prefix_; }

  // Deletes every table whose name starts with the prefix.
  void drop_tables() const;

 private:
  std::string prefix_;
  std::string url_;
};

}  // namespace docket::test_support

#endif  // DOCKET_TESTS_SUPPORT_DYNAMODB_TABLES_H_
