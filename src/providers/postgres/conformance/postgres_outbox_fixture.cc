// The PostgreSQL provider under the outbox suite (tests/conformance): each open() a
// schema of its own on the server of DOCKET_TEST_POSTGRES_URL.
#include <list>

#include "conformance/fixture_registry.h"
#include "conformance/outbox_fixture.h"
#include "docket/postgres/transaction.h"
#include "docket/stores/open_store.h"
#include "providers/postgres/tests/postgres_schema.h"

namespace docket::conformance {
namespace {

class PostgresOutboxFixture final : public OutboxFixture {
 public:
  // Each call works in a schema of its own: another, unrelated set of tables.
  std::unique_ptr<OutboxStore> open(const Clock& clock) override {
    const auto& schema = schemas_.emplace_back();
    auto store = open_outbox_store(schema.url(), clock);
    auto unit = store->begin();
    native(unit->handler_transaction())
        .exec("CREATE TABLE IF NOT EXISTS orders (id TEXT PRIMARY KEY)");
    unit->commit();
    return store;
  }
  void insert_order(HandlerTransaction& tx, const std::string& id) override {
    native(tx).exec("INSERT INTO orders (id) VALUES ($1)", {id});
  }
  std::int64_t count_orders(OutboxStore& store) override {
    auto unit = store.begin();
    const auto rows = native(unit->handler_transaction()).query("SELECT count(*) FROM orders");
    return std::get<std::int64_t>(rows.at(0).at(0));
  }

 private:
  static postgres::Transaction& native(HandlerTransaction& tx) {
    return dynamic_cast<postgres::Transaction&>(tx);
  }

  std::list<test_support::PostgresSchema> schemas_;  // stable addresses
};

// Sequences are assigned at staging and seen at commit: they can commit out of order.
const FixtureRegistrar<OutboxProviderCase> kPostgresOutboxCase{
    {.name = "postgres",
     .provider = "postgres",
     .make =
         [] { return std::unique_ptr<OutboxFixture>(std::make_unique<PostgresOutboxFixture>()); },
     .concurrent_commits = true,
     .wakes_relays = true}};

}  // namespace
}  // namespace docket::conformance
