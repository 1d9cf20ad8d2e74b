// docket demo on DynamoDB Local (DOCKET_TEST_DYNAMODB_URL; missing fails the test), run
// as a child process under a table prefix of its own: the order pipeline through heavy
// faults ends with every order invoiced once, twice in a row on one prefix, and the
// services' invoices table would show an order invoiced twice.
#include <gtest/gtest.h>

#include <string>

#include "docket/open_inbox_store.h"
#include "order_services.h"
#include "providers/dynamodb/dynamodb_client.h"
#include "providers/dynamodb/dynamodb_url.h"
#include "providers/dynamodb/tests/dynamodb_tables.h"
#include "services_for_store.h"
#include "tool/demo_run.h"

namespace docket::testing {
namespace {

// The items of the table `base` under the URL's prefix: a consistent Scan, counting.
std::int64_t items_in(const std::string& url, std::string_view base) {
  const dynamodb::Client client(dynamodb::parse_store_url(url));
  const std::string table = client.url().table_name(base);
  nlohmann::json request = {{"TableName", table}, {"ConsistentRead", true}, {"Select", "COUNT"}};
  std::int64_t count = 0;
  for (;;) {
    const dynamodb::Response page = client.call(
        {.operation = "Scan", .table = table, .replay = dynamodb::Replay::kSafe}, request);
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
  for (int run = 1; run <= 2; ++run) {
    SCOPED_TRACE("run " + std::to_string(run));
    const auto summary = expect_demo_ok(tables.url(), 30);
    ASSERT_FALSE(summary.is_null());
    EXPECT_EQ(summary.at("store"), tables.url());
  }
  // The services' tables, under the URL's prefix, hold both runs: an order item and
  // one invoice item for each order.
  EXPECT_EQ(items_in(tables.url(), "demo_orders"), 60);
  EXPECT_EQ(items_in(tables.url(), "demo_invoices"), 60);
}

// Two units of work each invoicing one order: the count shows it invoiced twice (no key
// on the order hides it), and an order of another run, whose id only begins alike, is
// not counted.
TEST(DocketDemo, DynamoDbServicesShowAnOrderInvoicedTwice) {
  const test_support::DynamoDbTables tables;
  const auto services = examples::services_for_store(tables.url());
  services->create_tables();
  const auto store = open_inbox_store(tables.url());
  for (const char* order_id : {"runa-1", "runa-1", "runa-2", "runab-1"}) {
    auto unit = store->begin();
    services->write_invoice(unit->handler_transaction(), {order_id, 250});
    unit->commit();
  }
  const examples::InvoiceCount count = examples::count_invoices(*services, "runa");
  EXPECT_EQ(count.invoices, 3);
  EXPECT_EQ(count.duplicates, 1);
}

}  // namespace
}  // namespace docket::testing
