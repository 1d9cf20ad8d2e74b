#include <stdlib.h>

#include <filesystem>
#include <stdexcept>

#include "docket/open_outbox_store.h"
#include "docket/sqlite/transaction.h"
#include "outbox_fixture.h"

namespace docket::conformance {
namespace {

class SqliteOutboxFixture final : public OutboxFixture {
 public:
  explicit SqliteOutboxFixture(bool in_file) : in_file_(in_file) {
    if (in_file_) {
      std::string dir = (std::filesystem::temp_directory_path() / "docket-outbox-XXXXXX").string();
      if (mkdtemp(dir.data()) == nullptr) {
        throw std::runtime_error("mkdtemp failed for " + dir);
      }
      dir_ = dir;
    }
  }
  ~SqliteOutboxFixture() override {
    if (!dir_.empty()) {
      std::filesystem::remove_all(dir_);
    }
  }

  std::unique_ptr<OutboxStore> open(const Clock& clock) override {
    const std::string url =
        in_file_ ? "sqlite://" + (dir_ / ("outbox-" + std::to_string(++opened_) + ".db")).string()
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

  bool in_file_;
  std::filesystem::path dir_;
  int opened_ = 0;
};

}  // namespace

std::unique_ptr<OutboxFixture> make_sqlite_file_outbox_fixture() {
  return std::make_unique<SqliteOutboxFixture>(true);
}
std::unique_ptr<OutboxFixture> make_sqlite_memory_outbox_fixture() {
  return std::make_unique<SqliteOutboxFixture>(false);
}

}  // namespace docket::conformance
