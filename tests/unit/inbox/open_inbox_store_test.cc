// Opening stores by URL, schema versioning, and the SQLite unit of work's guard
// against a handler ending the transaction.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <atomic>
#include <chrono>
#include <exception>
#include <filesystem>

#include "docket/core/error.h"
#include "docket/inbox/inbox_dispatcher.h"
#include "docket/inbox/inbox_errors.h"
#include "docket/sqlite/store.h"
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
  std::string path() const { return (path_ / "inbox.db").string(); }
  std::string url() const { return "sqlite://" + path(); }

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

// An InboxStoreError for a unit that could not begin, SQLite's busy timeout nested in it.
void expect_a_busy_store_could_not_begin(const InboxStoreError& e) {
  EXPECT_NE(std::string(e.what()).find("the inbox store failed to begin a unit of work"),
            std::string::npos)
      << e.what();
  bool nested_is_the_stores = false;
  try {
    std::rethrow_if_nested(e);
  } catch (const InfrastructureError& store_error) {
    nested_is_the_stores =
        std::string(store_error.what()).find("busy timeout") != std::string::npos;
  }
  EXPECT_TRUE(nested_is_the_stores);
}

// An outage of the store (here: another connection holds SQLite's write lock past the
// busy timeout) is the store's failure, told apart from the handler's: InboxStoreError
// naming the step, with the store's own error nested. A handler's InfrastructureError
// stays the handler's.
TEST(SqliteUnitOfWork, AStoreThatCannotBeginIsAnInboxStoreErrorAndAHandlersErrorIsItsOwn) {
  TempDir dir;
  auto store =
      sqlite::open_store({.path = dir.path(), .busy_timeout = std::chrono::milliseconds(20)});
  store->migrate();
  std::atomic<int> handled = 0;
  HandlerRegistry handlers;
  handlers.on<Ping>("ping", [&](const Ping&, HandlerContext&) { ++handled; });
  handlers.on<Ping>("pong", [](const Ping&, HandlerContext&) {
    throw InfrastructureError("the handler's gateway is down");
  });
  const InboxDispatcher inbox(*store, InboxOptions("billing"), std::move(handlers));
  {
    auto holder = open_inbox_store(dir.url());
    const auto lock = holder->begin();  // BEGIN IMMEDIATE: holds the write lock
    try {
      inbox.dispatch(Envelope{.message_id = "m", .event_type = "ping", .payload = "{}"});
      FAIL() << "a locked store must fail the dispatch";
    } catch (const InboxStoreError& e) {
      expect_a_busy_store_could_not_begin(e);
    }
  }
  EXPECT_EQ(handled.load(), 0);
  try {
    inbox.dispatch(Envelope{.message_id = "m2", .event_type = "pong", .payload = "{}"});
    FAIL() << "the handler's error must propagate";
  } catch (const InboxStoreError& e) {
    FAIL() << "the handler's failure was taken for the store's: " << e.what();
  } catch (const InfrastructureError& e) {
    EXPECT_STREQ(e.what(), "the handler's gateway is down");
  }
  EXPECT_EQ(inbox.dispatch(Envelope{.message_id = "m", .event_type = "ping", .payload = "{}"}),
            DispatchOutcome::kProcessed);
  EXPECT_EQ(handled.load(), 1);
}

// dispatch_batch tells the store's outage from a handler's failure as dispatch() does:
// a batch whose unit cannot begin throws InboxStoreError with the store's error nested,
// and a handler's InfrastructureError is its message's result, not the store's.
TEST(SqliteUnitOfWork, ABatchOnALockedStoreIsAnInboxStoreErrorAndAHandlersErrorIsItsResult) {
  TempDir dir;
  auto store =
      sqlite::open_store({.path = dir.path(), .busy_timeout = std::chrono::milliseconds(20)});
  store->migrate();
  HandlerRegistry handlers;
  handlers.on<Ping>("ping", [](const Ping&, HandlerContext&) {});
  handlers.on<Ping>("pong", [](const Ping&, HandlerContext&) {
    throw InfrastructureError("the handler's gateway is down");
  });
  const InboxDispatcher inbox(*store, InboxOptions("billing"), std::move(handlers));
  const std::vector<Envelope> batch{
      Envelope{.message_id = "m1", .event_type = "ping", .payload = "{}"},
      Envelope{.message_id = "m2", .event_type = "pong", .payload = "{}"}};
  {
    auto holder = open_inbox_store(dir.url());
    const auto lock = holder->begin();  // BEGIN IMMEDIATE: holds the write lock
    try {
      inbox.dispatch_batch(batch);
      FAIL() << "a locked store must fail the batch";
    } catch (const InboxStoreError& e) {
      expect_a_busy_store_could_not_begin(e);
    }
  }
  const auto results = inbox.dispatch_batch(batch);
  ASSERT_EQ(results.size(), 2U);
  EXPECT_EQ(results[0].outcome, DispatchOutcome::kProcessed);
  ASSERT_FALSE(results[1].ok());
  try {
    std::rethrow_exception(results[1].error);
  } catch (const InboxStoreError& e) {
    FAIL() << "the handler's failure was taken for the store's: " << e.what();
  } catch (const InfrastructureError& e) {
    EXPECT_STREQ(e.what(), "the handler's gateway is down");
  }
}

// A store the deployment broke while the service ran (here: its schema moved past this
// build's) is the store's failure too: an InboxStoreError over the store's
// ConfigurationError, so that a consumer returns the message instead of counting it.
TEST(SqliteUnitOfWork, AStoreRefusingItsConfigurationAtRunTimeIsAnInboxStoreError) {
  TempDir dir;
  {
    auto other = open_inbox_store(dir.url());
    auto unit = other->begin();
    native(*unit).exec("UPDATE docket_schema_version SET version = 99");
    unit->commit();
  }
  auto store = open_inbox_store(dir.url());
  HandlerRegistry handlers;
  handlers.on<Ping>("ping", [](const Ping&, HandlerContext&) {});
  const InboxDispatcher later(*store, InboxOptions("billing"), std::move(handlers));
  try {
    later.dispatch(Envelope{.message_id = "m", .event_type = "ping", .payload = "{}"});
    FAIL() << "a store whose schema is newer than this build must refuse";
  } catch (const InboxStoreError& e) {
    bool nested_configuration = false;
    try {
      std::rethrow_if_nested(e);
    } catch (const ConfigurationError& store_error) {
      nested_configuration =
          std::string(store_error.what()).find("version 99") != std::string::npos;
    }
    EXPECT_TRUE(nested_configuration) << e.what();
  }
}

}  // namespace
}  // namespace docket::open_inbox_store_test
