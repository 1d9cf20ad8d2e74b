// docket demo on DynamoDB Local (DOCKET_TEST_DYNAMODB_URL; missing fails the test), run
// as a child process under a table prefix of its own: the order pipeline through heavy
// faults ends with every order invoiced once, twice in a row on one prefix, and the
// services' invoices table would show an order invoiced twice.
#include <gtest/gtest.h>

#include <string>

#include "providers/dynamodb/dynamodb_client.h"
#include "providers/dynamodb/dynamodb_url.h"
#include "providers/dynamodb/tests/dynamodb_tables.h"
#include "tool/demo_run.h"

namespace docket::testing {
namespace {

// The items of the table `base` under the URL's prefix: a consistent Scan, counting.
std::int64_t items_in(const std::string& url, std::string_view base) {
  const dynamodb::detail::Client client(dynamodb::detail::parse_store_url(url));
  const std::string table = client.url().table_name(base);
  nlohmann::json request = {{"TableName", table}, {"ConsistentRead", true}, {"Select", "COUNT"}};
  std::int64_t count = 0;
  for (;;) {
    const dynamodb::detail::Response page = client.call(
        {.operation = "Scan", .table = table, .replay = dynamodb::detail::Replay::kSafe}, request);
    count += page.body().value("Count", std::int64_t{0});
    const auto last = page.body().find("LastEvaluatedKey");
    if (last == page.body().end()) {
      return count;
    }
    request["ExclusiveStartKey"] = *last;
  }
}

TEST(DocketDemo, RunsOnDynamoDbRepeatedly) {
  const test_support::DynamoDbTables tables;
  expect_demo_runs_twice(tables.url(),
                         [&](std::string_view base) { return items_in(tables.url(), base); });
}

TEST(DocketDemo, DynamoDbServicesShowAnOrderInvoicedTwice) {
  const test_support::DynamoDbTables tables;
  expect_an_order_invoiced_twice_is_counted(tables.url());
}

}  // namespace
}  // namespace docket::testing
