// The Cosmos DB provider under the outbox suite (tests/conformance/outbox_*): each open() a
// database of its own on the test server of DOCKET_TEST_COSMOS_URL (so a second open() is
// another, unrelated database), deleted with the fixture. The producer's orders are items
// of the inbox container written through docket::cosmos::Transaction in the unit's
// partition, marked docketTable "orders", so that a second create of one id is a unique
// violation; they are counted with a COUNT(1) query across partitions. A missing
// DOCKET_TEST_COSMOS_URL fails every case.
#include <memory>
#include <string>
#include <vector>

#include "conformance/fixture_registry.h"
#include "conformance/outbox_fixture.h"
#include "docket/cosmos/transaction.h"
#include "docket/stores/open_store.h"
#include "providers/cosmos/cosmos_client.h"
#include "providers/cosmos/cosmos_inbox_store.h"
#include "providers/cosmos/cosmos_items.h"
#include "providers/cosmos/tests/cosmos_database.h"

namespace docket::conformance {
namespace cosmos_outbox_fixture {

constexpr std::string_view kOrders = "orders";

class CosmosOutboxFixture final : public OutboxFixture {
 public:
  std::unique_ptr<OutboxStore> open(const Clock& clock) override {
    databases_.push_back(std::make_unique<test_support::CosmosDatabase>());
    return open_outbox_store(databases_.back()->url(), clock);
  }

  void insert_order(HandlerTransaction& tx, const std::string& id) override {
    dynamic_cast<cosmos::Transaction&>(tx).create(
        id, {{cosmos::detail::kTableProperty, std::string(kOrders)}});
  }

  std::int64_t count_orders(OutboxStore& store) override {
    store.migrate();
    const cosmos::detail::Client client(cosmos::detail::parse_store_url(databases_.front()->url()));
    return static_cast<std::int64_t>(cosmos::detail::query_count(
        client, {.container = client.url().container(cosmos::detail::kInboxContainerBase),
                 .sql = "SELECT VALUE COUNT(1) FROM c WHERE c.docketTable = @table",
                 .parameters = {{{"name", "@table"}, {"value", kOrders}}}}));
  }

 private:
  // The first is the store under test's.
  std::vector<std::unique_ptr<test_support::CosmosDatabase>> databases_;
};

// Not concurrent_commits: a unit's messages take their sequences from the counter when it
// commits, just before its batch, so an open unit holds no sequence and one rolled back
// draws none: the late-commit cases, which hold a staged sequence open, cannot arise
// through the SPI. Not wakes_relays: the store has no wake signal; relays poll.
const FixtureRegistrar<OutboxProviderCase> kCosmosOutboxCase{
    {.name = "cosmos",
     .provider = "cosmos",
     .make = [] { return std::unique_ptr<OutboxFixture>(std::make_unique<CosmosOutboxFixture>()); },
     .concurrent_commits = false}};

}  // namespace cosmos_outbox_fixture
}  // namespace docket::conformance
