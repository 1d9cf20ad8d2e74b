// docket demo on the Firestore emulator (DOCKET_TEST_FIRESTORE_URL; missing fails the
// test), run as a child process under a collection prefix of its own: the order
// pipeline through heavy faults ends with every order invoiced once, twice in a row on
// one prefix, and the services' invoices collection would show an order invoiced twice.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "docket/open_inbox_store.h"
#include "order_services.h"
#include "providers/firestore/firestore_client.h"
#include "providers/firestore/firestore_query.h"
#include "providers/firestore/firestore_url.h"
#include "providers/firestore/tests/firestore_collections.h"
#include "services_for_store.h"
#include "tool/demo_run.h"

namespace docket::testing {
namespace {

// The documents of the collection `base` under the URL's prefix, counted page by page.
std::int64_t documents_in(const std::string& url, std::string_view base) {
  const firestore::Client client(firestore::parse_store_url(url));
  std::int64_t count = 0;
  firestore::query_pages(client, {.collection = client.url().collection(base)}, 300,
                         [&](std::vector<firestore::Document>& page) {
                           count += static_cast<std::int64_t>(page.size());
                           return true;
                         });
  return count;
}

TEST(DocketDemo, RunsOnFirestoreRepeatedly) {
  const test_support::FirestoreCollections collections;
  for (int run = 1; run <= 2; ++run) {
    SCOPED_TRACE("run " + std::to_string(run));
    const auto summary = expect_demo_ok(collections.url(), 30);
    ASSERT_FALSE(summary.is_null());
    EXPECT_EQ(summary.at("store"), collections.url());
  }
  // The services' collections, under the URL's prefix, hold both runs: an order
  // document and one invoice document for each order.
  EXPECT_EQ(documents_in(collections.url(), "demo_orders"), 60);
  EXPECT_EQ(documents_in(collections.url(), "demo_invoices"), 60);
}

// Two units of work each invoicing one order: the count shows it invoiced twice (no
// document id of the order hides it), and an order of another run, whose id only
// begins alike, is not counted.
TEST(DocketDemo, FirestoreServicesShowAnOrderInvoicedTwice) {
  const test_support::FirestoreCollections collections;
  const auto services = examples::services_for_store(collections.url());
  services->create_tables();
  const auto store = open_inbox_store(collections.url());
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
