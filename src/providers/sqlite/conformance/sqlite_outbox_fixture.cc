// The SQLite provider under the outbox suite (tests/conformance): each open() a fresh
// database file in the fixture's temporary directory ("sqlite_file") or a private
// in-memory database ("sqlite_memory").
#include <memory>
#include <optional>
#include <string>

#include "conformance/eventsourcing/temp_dir.h"
#include "conformance/fixture_registry.h"
#include "conformance/outbox_fixture.h"
#include "docket/sqlite/transaction.h"
#include "docket/stores/open_store.h"

namespace docket::conformance {
namespace {

class SqliteOutboxFixture final : public OutboxFixture {
 public:
  explicit SqliteOutboxFixture(bool in_file) {
    if (in_file) {
      dir_.emplace();
    }
  }

  std::unique_ptr<OutboxStore> open(const Clock& clock) override {
    const std::string url =
        dir_ ? "sqlite://" + dir_->file("outbox-" + std::to_string(++opened_) + ".db")
             : "sqlite::memory:";
    auto store = open_outbox_store(url, clock);
    auto unit = store->begin();
    native(unit->handler_transaction())
        .exec("CREATE TABLE IF NOT EXISTS orders (id TEXT PRIMARY KEY)");
    unit->commit();
    return store;
  }
  void insert_order(HandlerTransaction& tx, const std::string& id) override {
    native(tx).exec("INSERT INTO orders (id) VALUES (?1)", {id});
  }
  std::int64_t count_orders(OutboxStore& store) override {
    auto unit = store.begin();
    const auto rows = native(unit->handler_transaction()).query("SELECT count(*) FROM orders");
    return std::get<std::int64_t>(rows.at(0).at(0));
  }

 private:
  static sqlite::Transaction& native(HandlerTransaction& tx) {
    return dynamic_cast<sqlite::Transaction&>(tx);
  }

  std::optional<eventsourcing::TempDir> dir_;  // set for database files
  int opened_ = 0;
};

// One writer at a time: no transaction can stage while another is open.
const FixtureRegistrar<OutboxProviderCase> kSqliteFileOutboxCase{
    {.name = "sqlite_file",
     .provider = "sqlite",
     .make =
         [] { return std::unique_ptr<OutboxFixture>(std::make_unique<SqliteOutboxFixture>(true)); },
     .wakes_relays = true}};
const FixtureRegistrar<OutboxProviderCase> kSqliteMemoryOutboxCase{
    {.name = "sqlite_memory",
     .provider = "sqlite",
     .make =
         [] {
           return std::unique_ptr<OutboxFixture>(std::make_unique<SqliteOutboxFixture>(false));
         },
     .wakes_relays = true}};

}  // namespace
}  // namespace docket::conformance
