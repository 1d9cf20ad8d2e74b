// docket demo on the Firestore emulator (DOCKET_TEST_FIRESTORE_URL; missing fails the
// test), run as a child process under a collection prefix of its own: the order
// pipeline through heavy faults ends with every order invoiced once, twice in a row on
// one prefix, and the services' invoices collection would show an order invoiced twice.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "providers/firestore/firestore_client.h"
#include "providers/firestore/firestore_query.h"
#include "providers/firestore/firestore_url.h"
#include "providers/firestore/tests/firestore_collections.h"
#include "tool/demo_run.h"

namespace docket::testing {
namespace {

// The documents of the collection `base` under the URL's prefix, counted page by page.
std::int64_t documents_in(const std::string& url, std::string_view base) {
  const firestore::detail::Client client(firestore::detail::parse_store_url(url));
  std::int64_t count = 0;
  firestore::detail::query_pages(client, {.collection = client.url().collection(base)}, 300,
                                 [&](std::vector<firestore::detail::Document>& page) {
                                   count += static_cast<std::int64_t>(page.size());
                                   return true;
                                 });
  return count;
}

TEST(DocketDemo, RunsOnFirestoreRepeatedly) {
  const test_support::FirestoreCollections collections;
  expect_demo_runs_twice(collections.url(), [&](std::string_view base) {
    return documents_in(collections.url(), base);
  });
}

TEST(DocketDemo, FirestoreServicesShowAnOrderInvoicedTwice) {
  const test_support::FirestoreCollections collections;
  expect_an_order_invoiced_twice_is_counted(collections.url());
}

}  // namespace
}  // namespace docket::testing
