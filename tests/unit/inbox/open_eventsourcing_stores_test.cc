// Opening the event, snapshot and saga stores by URL: the inbox's schemes and the
// same refusals; memory: is a database of its own, and an SQLite file or a PostgreSQL
// URL is one database that the inbox opened on it shares (a handler appends in its
// transaction).
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "conformance/eventsourcing/temp_dir.h"
#include "docket/core/error.h"
#include "docket/core/tenant.h"
#include "docket/inbox/inbox_dispatcher.h"
#include "docket/stores/open_store.h"
#ifdef DOCKET_HAVE_POSTGRES
#include "providers/postgres/tests/postgres_schema.h"
#endif

namespace docket::open_eventsourcing_stores_test {
namespace {

using conformance::eventsourcing::TempDir;

// Each URL factory, by the name its errors give the store; returns the provider.
struct Factory {
  std::string what;
  std::function<std::string(std::string_view url)> open;
};

const std::vector<Factory>& factories() {
  static const std::vector<Factory> all{
      {"event store",
       [](std::string_view url) { return std::string(open_event_store(url)->provider_name()); }},
      {"snapshot store",
       [](std::string_view url) { return std::string(open_snapshot_store(url)->provider_name()); }},
      {"saga store",
       [](std::string_view url) { return std::string(open_saga_store(url)->provider_name()); }}};
  return all;
}

TEST(OpenEventSourcingStores, KnownSchemesOpenTheirProvider) {
  for (const auto& [what, open] : factories()) {
    EXPECT_EQ(open("memory:"), "memory") << what;
    EXPECT_EQ(open("sqlite::memory:"), "sqlite") << what;
  }
}

TEST(OpenEventSourcingStores, BadUrlsAreRefusedNamingTheStoreAndTheSchemes) {
  for (const auto& [what, open] : factories()) {
    for (const std::string url : {"cassandra://localhost", "sqlite://", "sqlite:", "", "memory"}) {
      try {
        open(url);
        ADD_FAILURE() << what << " opened '" << url << "'";
      } catch (const ConfigurationError& e) {
        const std::string message = e.what();
        EXPECT_NE(message.find(what + " URL '" + url + "'"), std::string::npos) << message;
        EXPECT_NE(message.find("memory:, sqlite:///path/to/file.db"), std::string::npos) << message;
      }
    }
  }
}

TEST(OpenEventSourcingStores, EachMemoryUrlIsADatabaseOfItsOwn) {
  auto one = open_event_store("memory:");
  auto two = open_event_store("memory:");
  const StreamId stream(TenantId("acme"), "account", "A-1");
  ASSERT_TRUE(one->append(stream, ExpectedVersion::no_stream(), {{.type = "opened"}}).succeeded());
  EXPECT_TRUE(two->load(stream).empty());
}

struct Deposit {};
void from_json(const nlohmann::json&, Deposit&) {}

// The stores opened on `url` share the inbox's database: a handler's append commits
// with its dedup row, and sagas and snapshots written through one store object are
// read through another opened later on the same URL.
void expect_one_database(const std::string& url) {
  auto inbox = open_inbox_store(url);
  auto events = open_event_store(url);
  const TenantScope scope(TenantId("acme"));
  const StreamId stream(TenantId("acme"), "account", "A-1");
  HandlerRegistry handlers;
  handlers.on<Deposit>("deposit", [&](const Deposit&, HandlerContext& ctx) {
    events->append(ctx.transaction(), stream, ExpectedVersion::any(), {{.type = "deposited"}})
        .value_or_throw();
  });
  const InboxDispatcher dispatcher(*inbox, InboxOptions("ledger"), std::move(handlers));
  EXPECT_EQ(dispatcher.dispatch({.message_id = "m-1", .event_type = "deposit", .payload = "{}"}),
            DispatchOutcome::kProcessed);
  EXPECT_EQ(open_event_store(url)->load(stream).size(), 1u);

  const SagaId saga(TenantId("acme"), "checkout", "o-1");
  ASSERT_TRUE(open_saga_store(url)->save(saga, kNewSaga, "started").succeeded());
  EXPECT_EQ(open_saga_store(url)->load(saga)->state, "started");
  EXPECT_EQ(open_snapshot_store(url)->save(stream, 0, "state"), SnapshotSaveOutcome::kSaved);
  EXPECT_EQ(open_snapshot_store(url)->load(stream)->payload, "state");
}

TEST(OpenEventSourcingStores, AnSqliteFileIsOneDatabase) {
  const TempDir dir;
  expect_one_database("sqlite://" + dir.file("app.db"));
}

#ifdef DOCKET_HAVE_POSTGRES
TEST(OpenEventSourcingStores, APostgresUrlIsOneDatabase) {
  const test_support::PostgresSchema schema;
  expect_one_database(schema.url());
}
#endif

}  // namespace
}  // namespace docket::open_eventsourcing_stores_test
