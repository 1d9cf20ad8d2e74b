// The Firestore provider under the outbox suite (tests/conformance/outbox_*): each open()
// a collection prefix of its own on the Firestore emulator of DOCKET_TEST_FIRESTORE_URL
// (so a second open() is another, unrelated database), its documents deleted with the
// fixture. The producer's collection is <prefix>orders, a document per order id;
// orders are created through docket::firestore::Transaction and counted with a query
// over the collection, page by page. A missing DOCKET_TEST_FIRESTORE_URL fails every
// case.
#include <memory>
#include <string>
#include <vector>

#include "conformance/fixture_registry.h"
#include "conformance/outbox_fixture.h"
#include "docket/firestore/transaction.h"
#include "docket/stores/open_store.h"
#include "providers/firestore/firestore_client.h"
#include "providers/firestore/firestore_query.h"
#include "providers/firestore/tests/firestore_collections.h"

namespace docket::conformance {
namespace firestore_outbox_fixture {

constexpr std::string_view kOrders = "orders";

class FirestoreOutboxFixture final : public OutboxFixture {
 public:
  std::unique_ptr<OutboxStore> open(const Clock& clock) override {
    databases_.push_back(std::make_unique<test_support::FirestoreCollections>());
    return open_outbox_store(databases_.back()->url(), clock);
  }

  void insert_order(HandlerTransaction& tx, const std::string& id) override {
    dynamic_cast<firestore::Transaction&>(tx).create(orders_collection(), id,
                                                     nlohmann::json::object());
  }

  std::int64_t count_orders(OutboxStore&) override {
    const firestore::detail::Client client(
        firestore::detail::parse_store_url(databases_.front()->url()));
    std::int64_t count = 0;
    firestore::detail::query_pages(client,
                                   firestore::detail::Query{.collection = orders_collection()}, 500,
                                   [&](std::vector<firestore::detail::Document>& page) {
                                     count += static_cast<std::int64_t>(page.size());
                                     return true;
                                   });
    return count;
  }

 private:
  // The first database's: the store under test.
  std::string orders_collection() const {
    return databases_.front()->prefix() + std::string(kOrders);
  }

  std::vector<std::unique_ptr<test_support::FirestoreCollections>> databases_;
};

// Not concurrent_commits: a unit's messages take their sequences from the counter when
// it commits, just before its commit request, so an open unit holds no sequence and one
// rolled back draws none: the late-commit cases, which hold a staged sequence open,
// cannot arise through the SPI. A sequence is invisible only while its commit is in
// flight; the provider's own tests (firestore_outbox_test.cc) show an open unit is not
// skipped and a failed commit's gap holds a consumer for one gap_timeout.
const FixtureRegistrar<OutboxProviderCase> kFirestoreOutboxCase{
    {.name = "firestore",
     .provider = "firestore",
     .make =
         [] { return std::unique_ptr<OutboxFixture>(std::make_unique<FirestoreOutboxFixture>()); },
     .concurrent_commits = false}};

}  // namespace firestore_outbox_fixture
}  // namespace docket::conformance
