// Shared by the DynamoDB integration tests: a client on the DynamoDB Local test server
// (DOCKET_TEST_DYNAMODB_URL) whose store URL carries a table prefix of the test's own,
// so that tests running in parallel processes never share a table, and that deletes
// the tables it made when the test ends.
#ifndef DOCKET_TESTS_INTEGRATION_DYNAMODB_FIXTURE_H_
#define DOCKET_TESTS_INTEGRATION_DYNAMODB_FIXTURE_H_

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "providers/dynamodb/dynamodb_client.h"
#include "providers/dynamodb/dynamodb_table_ensurer.h"
#include "providers/dynamodb/dynamodb_url.h"
#include "providers/dynamodb/tests/dynamodb_env.h"
#include "support/unique_name.h"

namespace docket::dynamodb::detail {

class DynamoDbTest : public ::testing::Test {
 protected:
  DynamoDbTest()
      : url_(parse_store_url(test_support::dynamodb_test_url() +
                             "&table_prefix=" + test_support::unique_name("t") + "_")),
        client_(url_) {}

  ~DynamoDbTest() override {
    for (const std::string& table : made_) {
      try {
        client_.call({.operation = "DeleteTable",
                      .table = table,
                      .replay = Replay::kSafe,
                      .expected = {ErrorKind::kResourceNotFound}},
                     {{"TableName", table}});
      } catch (const std::exception& e) {
        ADD_FAILURE() << "could not delete test table " << table << ": " << e.what();
      }
    }
  }

  // A table `base` (prefixed) keyed by pk (S) and, when `sorted`, sk (S) too, deleted
  // when the test ends; `ensure` makes it.
  TableSchema schema(const std::string& base, bool sorted = false) {
    TableSchema schema{.name = url_.table_name(base), .partition_key = {"pk", KeyType::kString}};
    if (sorted) {
      schema.sort_key = KeyAttribute{"sk", KeyType::kString};
    }
    return schema;
  }
  TableOrigin ensure(const TableSchema& schema) {
    made_.push_back(schema.name);
    return ensure_table(client_, schema);
  }

  StoreUrl url_;
  Client client_;
  std::vector<std::string> made_;
};

}  // namespace docket::dynamodb::detail

#endif  // DOCKET_TESTS_INTEGRATION_DYNAMODB_FIXTURE_H_
