#include <stdlib.h>

#include <filesystem>

#include "docket/open_inbox_store.h"
#include "docket/sqlite/transaction.h"
#include "suite.h"

namespace docket::conformance {
namespace {

class SqliteFixture final : public ProviderFixture {
 public:
  explicit SqliteFixture(bool in_file) {
    if (in_file) {
      std::string dir = (std::filesystem::temp_directory_path() / "docket-inbox-XXXXXX").string();
      if (mkdtemp(dir.data()) == nullptr) {
        throw std::runtime_error("mkdtemp failed for " + dir);
      }
      dir_ = dir;
      url_ = "sqlite://" + (dir_ / "inbox.db").string();
    } else {
      url_ = "sqlite::memory:";
    }
  }
  ~SqliteFixture() override {
    if (!dir_.empty()) {
      std::filesystem::remove_all(dir_);
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
    return dir_.empty() ? std::nullopt : std::optional(url_);
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

  std::filesystem::path dir_;
  std::string url_;
};

}  // namespace

std::unique_ptr<ProviderFixture> make_sqlite_file_fixture() {
  return std::make_unique<SqliteFixture>(true);
}
std::unique_ptr<ProviderFixture> make_sqlite_memory_fixture() {
  return std::make_unique<SqliteFixture>(false);
}

}  // namespace docket::conformance
