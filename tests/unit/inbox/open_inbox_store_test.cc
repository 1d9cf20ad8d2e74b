// Opening stores by URL, schema versioning, and the SQLite unit of work's guard
// against a handler ending the transaction.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>

#include "docket/core/error.h"
#include "docket/inbox/inbox_dispatcher.h"
#include "docket/sqlite/transaction.h"
#include "docket/stores/open_store.h"

namespace docket::open_inbox_store_test {
namespace {

class TempDir {
 public:
  TempDir() {
    std::string dir = (std::filesystem::temp_directory_path() / "docket-open-XXXXXX").string();
    EXPECT_NE(mkdtemp(dir.data()), nullptr);
    path_ = dir;
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  std::string url() const { return "sqlite://" + (path_ / "inbox.db").string(); }

 private:
  std::filesystem::path path_;
};

sqlite::Transaction& native(UnitOfWork& unit) {
  return dynamic_cast<sqlite::Transaction&>(unit.handler_transaction());
}

TEST(OpenInboxStore, KnownSchemes) {
  EXPECT_EQ(open_inbox_store("memory:")->provider_name(), "memory");
  EXPECT_EQ(open_inbox_store("sqlite::memory:")->provider_name(), "sqlite");
}

TEST(OpenInboxStore, UnknownSchemeListsTheSchemes) {
  for (const char* url : {"cassandra://localhost", "sqlite://", "sqlite:", "", "memory"}) {
    try {
      open_inbox_store(url);
      FAIL() << url;
    } catch (const ConfigurationError& e) {
      EXPECT_NE(std::string(e.what()).find("memory:, sqlite:///path/to/file.db"), std::string::npos)
          << e.what();
    }
  }
}

TEST(SqliteSchema, MigrateIsIdempotentAndANewerVersionIsRefused) {
  TempDir dir;
  {
    auto store = open_inbox_store(dir.url());
    store->migrate();
    store->migrate();
    auto unit = store->begin();
    EXPECT_EQ(native(*unit).query("SELECT version FROM docket_schema_version WHERE component = "
                                  "'inbox'"),
              (std::vector<sqlite::Row>{{std::int64_t{1}}}));
    native(*unit).exec("UPDATE docket_schema_version SET version = 99");
    unit->commit();
  }
  auto store = open_inbox_store(dir.url());
  try {
    store->begin();
    FAIL() << "a newer schema must be refused";
  } catch (const ConfigurationError& e) {
    EXPECT_NE(std::string(e.what()).find("version 99"), std::string::npos) << e.what();
  }
}

struct Ping {};
void from_json(const nlohmann::json&, Ping&) {}

TEST(SqliteUnitOfWork, HandlerThatCommitsNativelyIsRefused) {
  TempDir dir;
  auto store = open_inbox_store(dir.url());
  HandlerRegistry handlers;
  handlers.on<Ping>(
      "ping", [](const Ping&, sqlite::Transaction& tx, HandlerContext&) { tx.exec("COMMIT"); });
  const InboxDispatcher inbox(*store, InboxOptions("billing"), std::move(handlers));
  EXPECT_THROW(inbox.dispatch(Envelope{.message_id = "m", .event_type = "ping", .payload = "{}"}),
               InfrastructureError);
}

}  // namespace
}  // namespace docket::open_inbox_store_test
