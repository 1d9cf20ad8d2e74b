// The SQLite provider under the inbox suite (tests/conformance): a database file in a
// fresh temporary directory, which other processes open by its URL ("sqlite_file"),
// and a private in-memory database ("sqlite_memory").
#include <memory>
#include <optional>
#include <string>

#include "conformance/eventsourcing/temp_dir.h"
#include "conformance/fixture_registry.h"
#include "conformance/suite.h"
#include "docket/sqlite/transaction.h"
#include "docket/stores/open_store.h"

namespace docket::conformance {
namespace {

class SqliteFixture final : public ProviderFixture {
 public:
  explicit SqliteFixture(bool in_file) {
    if (in_file) {
      dir_.emplace();
      url_ = "sqlite://" + dir_->file("inbox.db");
    } else {
      url_ = "sqlite::memory:";
    }
  }

  std::unique_ptr<InboxStore> open(const Clock& clock) override {
    auto store = open_inbox_store(url_, clock);
    auto unit = store->begin();
    native(*unit).exec("CREATE TABLE IF NOT EXISTS effects (id TEXT PRIMARY KEY)");
    unit->commit();
    return store;
  }
  std::optional<std::string> shared_url() const override {
    return dir_ ? std::optional(url_) : std::nullopt;
  }
  void on_ping(HandlerRegistry& handlers, EffectId effect_id) override {
    handlers.on<Ping>(kPingType,
                      [effect_id = std::move(effect_id)](const Ping& event, sqlite::Transaction& tx,
                                                         HandlerContext& ctx) {
                        tx.exec("INSERT INTO effects (id) VALUES (?1)", {effect_id(event, ctx)});
                      });
  }
  std::int64_t count_rows(InboxStore& store, std::string_view table) override {
    auto unit = store.begin();
    const auto rows = native(*unit).query("SELECT count(*) FROM " + std::string(table));
    return std::get<std::int64_t>(rows.at(0).at(0));
  }

 private:
  static sqlite::Transaction& native(UnitOfWork& unit) {
    return dynamic_cast<sqlite::Transaction&>(unit.handler_transaction());
  }

  std::optional<eventsourcing::TempDir> dir_;  // set for a database file
  std::string url_;
};

const FixtureRegistrar<ProviderCase> kSqliteFileInboxCase{
    {.name = "sqlite_file",
     .provider = "sqlite",
     .make = [] { return std::unique_ptr<ProviderFixture>(std::make_unique<SqliteFixture>(true)); },
     .typed_handlers = &noop_ping_handlers<sqlite::Transaction>,
     .multi_process = true}};
const FixtureRegistrar<ProviderCase> kSqliteMemoryInboxCase{
    {.name = "sqlite_memory",
     .provider = "sqlite",
     .make =
         [] { return std::unique_ptr<ProviderFixture>(std::make_unique<SqliteFixture>(false)); },
     .typed_handlers = &noop_ping_handlers<sqlite::Transaction>}};

}  // namespace
}  // namespace docket::conformance
