#include "docket/open_inbox_store.h"
#include "docket/postgres/transaction.h"
#include "postgres_schema.h"
#include "provider_fixture.h"

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
  void insert_effect(HandlerContext& ctx, const std::string& id) override {
    ctx.transaction<postgres::Transaction>().exec("INSERT INTO effects (id) VALUES ($1)", {id});
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

  PostgresSchema schema_;
};

}  // namespace

std::unique_ptr<ProviderFixture> make_postgres_fixture() {
  return std::make_unique<PostgresFixture>();
}

}  // namespace docket::conformance
