// The PostgreSQL provider under the inbox suite (tests/conformance): a schema of its
// own per fixture on the server of DOCKET_TEST_POSTGRES_URL, which other processes
// reach by the same URL.
#include "conformance/fixture_registry.h"
#include "conformance/suite.h"
#include "docket/postgres/transaction.h"
#include "docket/stores/open_store.h"
#include "providers/postgres/tests/postgres_schema.h"

namespace docket::conformance {
namespace {

class PostgresFixture final : public ProviderFixture {
 public:
  std::unique_ptr<InboxStore> open(const Clock& clock) override {
    auto store = open_inbox_store(schema_.url(), clock);
    auto unit = store->begin();
    native(*unit).exec("CREATE TABLE IF NOT EXISTS effects (id TEXT PRIMARY KEY)");
    unit->commit();
    return store;
  }
  std::optional<std::string> shared_url() const override { return schema_.url(); }
  void on_ping(HandlerRegistry& handlers, EffectId effect_id) override {
    handlers.on<Ping>(
        kPingType, [effect_id = std::move(effect_id)](const Ping& event, postgres::Transaction& tx,
                                                      HandlerContext& ctx) {
          tx.exec("INSERT INTO effects (id) VALUES ($1)", {effect_id(event, ctx)});
        });
  }
  std::int64_t count_rows(InboxStore& store, std::string_view table) override {
    auto unit = store.begin();
    const auto rows = native(*unit).query("SELECT count(*) FROM " + std::string(table));
    return std::get<std::int64_t>(rows.at(0).at(0));
  }

 private:
  static postgres::Transaction& native(UnitOfWork& unit) {
    return dynamic_cast<postgres::Transaction&>(unit.handler_transaction());
  }

  test_support::PostgresSchema schema_;
};

const FixtureRegistrar<ProviderCase> kPostgresInboxCase{
    {.name = "postgres",
     .provider = "postgres",
     .make = [] { return std::unique_ptr<ProviderFixture>(std::make_unique<PostgresFixture>()); },
     .typed_handlers = &noop_ping_handlers<postgres::Transaction>,
     .multi_process = true}};

}  // namespace
}  // namespace docket::conformance
