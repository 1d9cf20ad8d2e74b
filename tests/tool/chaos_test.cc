// `docket chaos`: ten kills on every provider's scratch database lose and double
// nothing; on a PostgreSQL server of the test's own, also with the workers' sessions
// dropped and the server crashed; and the checks it ends with find each fault they are
// there to find, planted by hand in a store.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "chaos/chaos_check.h"
#include "chaos/chaos_ledger.h"
#include "chaos_expectations.h"
#include "conformance/eventsourcing/temp_dir.h"
#include "conformance/fixture_registry.h"
#include "docket/core/tenant.h"
#include "docket/outbox/outbox.h"
#include "docket/spi/inbox_unit.h"
#include "docket/stores/open_store.h"
#include "scratch_stores.h"
#include "services.h"
#include "services_for_store.h"
#include "support/loopback_http_server.h"
#include "support/own_server.h"
#include "support/scratch_database.h"
#include "tool_runner.h"

namespace docket::testing {
namespace {

class ChaosTest : public ::testing::TestWithParam<test_support::ScratchDatabaseCase> {};

TEST_P(ChaosTest, TenKillsLoseNothingAndDoubleNothing) {
  const auto database = GetParam().make();
  const nlohmann::json report = expect_chaos_ok({"--store", database->url()});
  if (report.is_null()) {
    return;
  }
  if (report.at("outbox_checked") == true) {
    EXPECT_EQ(report.at("messages"), report.at("orders")) << report.dump();
    EXPECT_EQ(report.at("unpublished"), 0) << report.dump();
    EXPECT_EQ(report.at("dedup_without_effect"), 0) << report.dump();
    EXPECT_EQ(report.at("effect_without_dedup"), 0) << report.dump();
  }
}

// A second relay whose clock runs ahead claims beside the first (--clock-skew): on the
// stores whose leases are on their own clock (SQLite, PostgreSQL) by five leases, on the
// others within the lease, the bound docs/claim-inbox.md states for them.
TEST_P(ChaosTest, ASkewedRelayBesideTheFirstLosesAndDoublesNothing) {
  const auto database = GetParam().make();
  const std::string& name = GetParam().name;
  const bool store_clock = name.starts_with("sqlite") || name.starts_with("postgres");
  const nlohmann::json report =
      expect_chaos_ok({"--store", database->url(), "--clock-skew", store_clock ? "10s" : "1s"});
  if (report.is_null()) {
    return;
  }
  EXPECT_EQ(report.at("clock_skew_seconds"), store_clock ? 10 : 1) << report.dump();
  EXPECT_EQ(report.at("kills").get<int>(),
            report.at("kills_producer").get<int>() + report.at("kills_relay").get<int>() +
                report.at("kills_consumer").get<int>() + report.at("kills_skewed_relay").get<int>())
      << report.dump();
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ChaosTest);
INSTANTIATE_TEST_SUITE_P(
    Stores, ChaosTest, ::testing::ValuesIn(scratch_databases_for_the_pipeline()),
    [](const ::testing::TestParamInfo<test_support::ScratchDatabaseCase>& store) {
      return store.param.name;
    });

#if DOCKET_HAVE_POSTGRES
// A PostgreSQL cluster of the test's own (scripts/pg-start.sh in a fresh directory, on
// DOCKET_CHAOS_PG_PORT or else a loopback port free when the test starts, so that no
// other server on the machine can hold it), stopped and removed with the object: a
// crash of it ends no other test's sessions.
class OwnPostgresServer {
 public:
  OwnPostgresServer()
      : server_("pg", 1, [this](int free_port) { return settings(dir_, free_port); }) {}
  const std::string& url() const noexcept { return server_.url(); }

 private:
  // A data directory a port, as pg-start.sh writes the port into its configuration.
  static std::string settings(const conformance::eventsourcing::TempDir& dir, int free_port) {
    // The server runs as another user (postgres, when the tests run as root), who must
    // reach its data directory inside this one.
    std::filesystem::permissions(dir.file("."), std::filesystem::perms::owner_all |
                                                    std::filesystem::perms::group_exec |
                                                    std::filesystem::perms::others_exec);
    const char* chosen = std::getenv("DOCKET_CHAOS_PG_PORT");
    const std::string port = chosen != nullptr ? std::string(chosen) : std::to_string(free_port);
    return "DOCKET_PG_DIR=" + dir.file("pg-" + port) + " DOCKET_PG_PORT=" + port;
  }

  conformance::eventsourcing::TempDir dir_;
  OwnServer server_;
};

TEST(ChaosOnPostgres, TenKillsWithSessionsDroppedAndTheServerCrashedLoseNothing) {
  const OwnPostgresServer server;
  const nlohmann::json report =
      expect_chaos_ok({"--store", server.url(), "--allow-server-restart"});
  if (report.is_null()) {
    return;
  }
  EXPECT_GE(report.at("connection_drops"), 1) << report.dump();
  EXPECT_GE(report.at("server_crashes"), 1) << report.dump();
  EXPECT_EQ(report.at("unpublished"), 0) << report.dump();
}
#endif

#if DOCKET_HAVE_REDIS
// A Redis server of the test's own (scripts/redis-start.sh: appendonly yes, appendfsync
// always) on a loopback port free when the test starts: SIGKILLed and started again by
// the run, and its workers' connections closed, with nothing lost and nothing doubled.
TEST(ChaosOnRedis, TenKillsWithConnectionsClosedAndTheServerCrashedLoseNothing) {
  const conformance::eventsourcing::TempDir dir;
  const OwnServer server("redis", 1, [&](int port) {
    return "DOCKET_REDIS_DIR=" + dir.file("redis-" + std::to_string(port)) +
           " DOCKET_REDIS_PORT=" + std::to_string(port);
  });
  const nlohmann::json report =
      expect_chaos_ok({"--store", server.url(), "--allow-server-restart"});
  if (report.is_null()) {
    return;
  }
  EXPECT_GE(report.at("connection_drops"), 1) << report.dump();
  EXPECT_GE(report.at("server_crashes"), 1) << report.dump();
  EXPECT_EQ(report.at("unpublished"), 0) << report.dump();
  EXPECT_NE(report.at("store_durability").get<std::string>().find("appendfsync always"),
            std::string::npos)
      << report.dump();
}
#endif

TEST(ChaosCommand, ServerFaultsOnAStoreWithoutAServerAreRefusedBeforeAnythingIsWritten) {
  const conformance::eventsourcing::TempDir dir;
  const std::string db = dir.file("chaos.db");
  const ToolRun run =
      run_docket({"chaos", "--store", "sqlite://" + db, "--allow-server-restart", "--kills", "1"},
                 std::nullopt, kChaosTimeLimit);
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_NE(run.err.find("--allow-server-restart"), std::string::npos) << run.err;
  EXPECT_FALSE(std::filesystem::exists(db));
}

// billing's dedup record of `message`.
InboxRecord billing_record(const OutboxRecord& message) {
  InboxRecord record;
  record.key = {.tenant = message.tenant,
                .consumer_id = std::string(examples::kBillingConsumer),
                .message_id = message.id};
  record.event_type = message.event_type;
  return record;
}

// Each fault the checks look for, planted in a SQLite store through the order services
// and the stores themselves; one run's orders: 1 invoiced twice, 2 never invoiced, 3
// invoiced without a dedup record, 4 with a dedup record and no invoice, 5 clean; and
// only order 5 in its customer's stream and account saga.
TEST(ChaosCheck, FindsEachFaultPlantedInAStore) {
  const conformance::eventsourcing::TempDir dir;
  const std::string url = "sqlite://" + dir.file("planted.db");
  const auto services = examples::services_for_store(url);
  services->create_tables();
  const auto outbox_store = open_outbox_store(url);
  const auto inbox_store = open_inbox_store(url);
  const Outbox outbox(*outbox_store);
  for (std::size_t n = 1; n <= 5; ++n) {
    examples::place_order(*outbox_store, outbox, *services, examples::order_of("runp", n));
  }
  std::map<std::string, OutboxRecord> message_of;
  for (OutboxRecord& record : outbox_store->read_feed(0, 100)) {
    message_of[*record.correlation_id] = record;
  }
  // Orders 1, 3, 4 and 5: a relay published them (marked done); 2 it never did.
  const std::string token = "relay-1";
  outbox_store->claim(token, SystemClock::instance().now(),
                      SystemClock::instance().now() + std::chrono::seconds(30), 100);
  for (const char* order : {"runp-1", "runp-3", "runp-4", "runp-5"}) {
    ASSERT_TRUE(
        outbox_store->complete(message_of.at(order).id, token, SystemClock::instance().now()));
  }
  const auto invoice = [&](const char* order, bool with_dedup) {
    auto unit = spi::InboxStoreAccess::begin(*inbox_store);
    if (with_dedup) {
      const OutboxRecord& message = message_of.at(order);
      ASSERT_TRUE(unit->try_record(billing_record(message)));
    }
    services->write_invoice(unit->handler_transaction(), {order, 250});
    unit->commit();
  };
  invoice("runp-1", true);
  invoice("runp-1", false);
  invoice("runp-3", false);
  invoice("runp-5", true);
  {
    // Order 5 also has its event and its customer's account save; 1 and 3 have neither.
    const tool::ChaosLedger ledger(url);  // opened (its schema made) before the unit
    auto unit = inbox_store->begin();
    const TenantScope tenant(TenantId::default_tenant());
    ledger.record(unit->handler_transaction(), "runp-5");
    unit->commit();
  }
  {
    auto unit = spi::InboxStoreAccess::begin(*inbox_store);
    const OutboxRecord& message = message_of.at("runp-4");
    ASSERT_TRUE(unit->try_record(billing_record(message)));
    unit->commit();
  }

  const tool::ChaosCheck check = tool::check_chaos_run(url, *services, "runp");
  EXPECT_EQ(check.orders, 5);
  EXPECT_EQ(check.invoices, 4);
  EXPECT_EQ(check.doubled, 1);      // order 1
  EXPECT_EQ(check.lost, 2);         // orders 2 and 4
  EXPECT_EQ(check.unpublished, 1);  // order 2's message
  EXPECT_EQ(check.messages, 5);
  EXPECT_EQ(check.effect_without_dedup, 1);  // order 3
  EXPECT_EQ(check.dedup_without_effect, 1);  // order 4
  EXPECT_EQ(check.phantom, 0);
  ASSERT_TRUE(check.ledger.events_checked);
  ASSERT_TRUE(check.ledger.sagas_checked);
  EXPECT_EQ(check.ledger.events, 1);
  EXPECT_EQ(check.ledger.events_lost, 2);      // orders 1 and 3
  EXPECT_EQ(check.ledger.saga_mismatches, 2);  // customers 1 and 3
  EXPECT_EQ(check.ledger.version_gaps, 0);
  EXPECT_FALSE(check.ok());
}

}  // namespace
}  // namespace docket::testing
