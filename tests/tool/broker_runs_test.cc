// `docket chaos --transport amqp://...`: the producer, relay and consumer processes with
// a real RabbitMQ between them, SIGKILLed at random, lose and double nothing on SQLite
// and PostgreSQL; on a broker of the test's own, also with the broker restarted; and
// what the broker options refuse, refused before anything is written. With them,
// `docket demo --transport`.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "chaos_expectations.h"
#include "conformance/eventsourcing/temp_dir.h"
#include "conformance/fixture_registry.h"
#include "own_server.h"
#include "support/loopback_http_server.h"
#include "support/scratch_database.h"
#include "tool_runner.h"

namespace docket::testing {
namespace {

std::string shared_broker_url() {
  const char* url = std::getenv("DOCKET_TEST_RABBITMQ_URL");
  if (url == nullptr || *url == '\0') {
    throw std::runtime_error(
        "DOCKET_TEST_RABBITMQ_URL is not set, and `docket chaos --transport` needs a real "
        "RabbitMQ broker. Start the throwaway one and export its URL:\n"
        "  export DOCKET_TEST_RABBITMQ_URL=$(scripts/rabbitmq-start.sh)");
  }
  return url;
}

std::string with_exchange(const std::string& url) {
  return url + (url.find('?') == std::string::npos ? "?" : "&") + "exchange=docket-chaos-test";
}

// The password of the test brokers' URLs (scripts/rabbitmq-env.sh), which no output
// may show.
constexpr std::string_view kBrokerPassword = "docket-test-secret";

// The scratch databases of SQLite and PostgreSQL: what the issue asks the broker runs of.
std::vector<test_support::ScratchDatabaseCase> sql_stores() {
  std::vector<test_support::ScratchDatabaseCase> cases =
      conformance::FixtureRegistry<test_support::ScratchDatabaseCase>::all();
  std::erase_if(cases, [](const auto& c) { return c.name != "sqlite" && c.name != "postgres"; });
  return cases;
}

class ChaosAcrossRabbitMq : public ::testing::TestWithParam<test_support::ScratchDatabaseCase> {};

TEST_P(ChaosAcrossRabbitMq, TenKillsLoseNothingAndDoubleNothing) {
  const auto database = GetParam().make();
  const nlohmann::json report = expect_chaos_ok(
      {"--store", database->url(), "--transport", with_exchange(shared_broker_url())});
  if (report.is_null()) {
    return;
  }
  EXPECT_EQ(report.at("transport").get<std::string>().find(kBrokerPassword), std::string::npos);
  EXPECT_NE(report.at("destination").get<std::string>().find(report.at("run").get<std::string>()),
            std::string::npos)
      << report.dump();
  EXPECT_EQ(report.at("unpublished"), 0) << report.dump();
  EXPECT_GE(report.at("published_copies").get<int>(), report.at("orders").get<int>())
      << report.dump();
  EXPECT_GE(report.at("deliveries").get<int>(), report.at("orders").get<int>()) << report.dump();
  EXPECT_EQ(report.at("broker_restarts"), 0) << report.dump();
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ChaosAcrossRabbitMq);
INSTANTIATE_TEST_SUITE_P(
    Stores, ChaosAcrossRabbitMq, ::testing::ValuesIn(sql_stores()),
    [](const ::testing::TestParamInfo<test_support::ScratchDatabaseCase>& store) {
      return store.param.name;
    });

// A RabbitMQ of the test's own (scripts/rabbitmq-start.sh in a fresh directory, on a
// loopback port free when the test starts; its distribution and epmd ports the next
// two), stopped with the object: restarting it ends no other test's connections.
class OwnRabbitMqBroker {
 public:
  OwnRabbitMqBroker()
      : server_("rabbitmq", "DOCKET_RABBITMQ_DIR=" + dir_.file("rabbitmq") +
                                " DOCKET_RABBITMQ_PORT=" +
                                std::to_string(test_support::closed_loopback_port())) {}
  const std::string& url() const noexcept { return server_.url(); }

 private:
  conformance::eventsourcing::TempDir dir_;
  OwnServer server_;
};

TEST(ChaosAcrossOwnRabbitMq, TwentyKillsAndTwoBrokerRestartsLoseNothing) {
  const OwnRabbitMqBroker broker;
  const conformance::eventsourcing::TempDir dir;
  const nlohmann::json report =
      expect_chaos_ok({"--store", "sqlite://" + dir.file("chaos.db"), "--transport",
                       with_exchange(broker.url()), "--allow-broker-restart"},
                      20);
  if (report.is_null()) {
    return;
  }
  EXPECT_EQ(report.at("broker_restarts"), 2) << report.dump();
  EXPECT_EQ(report.at("unpublished"), 0) << report.dump();
}

// A refused run exits 1 naming `option`, without printing the password and without
// creating the store's file.
void expect_refused(std::vector<std::string> args, std::string_view option) {
  const conformance::eventsourcing::TempDir dir;
  const std::string db = dir.file("chaos.db");
  args.insert(args.begin(), {"chaos", "--store", "sqlite://" + db, "--kills", "1"});
  const ToolRun run = run_docket(args, std::nullopt, kChaosTimeLimit);
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_NE(run.err.find(option), std::string::npos) << run.err;
  EXPECT_EQ(run.err.find(kBrokerPassword), std::string::npos) << run.err;
  EXPECT_EQ(run.out.find(kBrokerPassword), std::string::npos) << run.out;
  EXPECT_FALSE(std::filesystem::exists(db));
}

TEST(ChaosCommand, BrokerRestartsWithoutATransportAreRefused) {
  expect_refused({"--allow-broker-restart"}, "--transport");
}

TEST(ChaosCommand, BrokerRestartsOfABrokerOnAnotherMachineAreRefused) {
  // 192.0.2.0/24 is TEST-NET-1: never a host of this machine.
  expect_refused(
      {"--transport",
       "amqp://docket:" + std::string(kBrokerPassword) + "@192.0.2.1:5672/docket?exchange=x",
       "--allow-broker-restart"},
      "this machine");
}

TEST(ChaosCommand, ATransportUrlNoTransportOpensIsRefusedNamingTheOnesThatDo) {
  expect_refused({"--transport", "kafka://docket:" + std::string(kBrokerPassword) + "@127.0.0.1/x"},
                 "amqp://");
}

TEST(ChaosCommand, ATransportUrlWithoutAnExchangeIsRefused) {
  expect_refused({"--transport", shared_broker_url()}, "exchange");
}

// `docket demo --transport`: the order pipeline across the test broker, billing crashing
// midway between commit and acknowledgement; the verdict holds, twice in a row on one
// store (the second run meets what the first left on the demo's queue, if anything).
TEST(DemoAcrossRabbitMq, EveryOrderInvoicedOnceTwiceInARow) {
  const conformance::eventsourcing::TempDir dir;
  for (int round = 0; round < 2; ++round) {
    const ToolRun run =
        run_docket({"demo", "--store", "sqlite://" + dir.file("demo.db"), "--transport",
                    with_exchange(shared_broker_url()), "--orders", "300", "--json"},
                   std::nullopt, kChaosTimeLimit);
    ASSERT_EQ(run.exit_code, 0) << describe(run);
    const auto summary = nlohmann::json::parse(run.out, nullptr, false);
    ASSERT_FALSE(summary.is_discarded()) << describe(run);
    EXPECT_EQ(summary.at("ok"), true) << run.out;
    EXPECT_EQ(summary.at("orders"), 300) << run.out;
    EXPECT_EQ(summary.at("invoices"), 300) << run.out;
    EXPECT_EQ(summary.at("duplicates_found"), 0) << run.out;
    EXPECT_EQ(summary.at("processed"), 300) << run.out;
    EXPECT_EQ(summary.at("consumer_restarts"), 1) << run.out;
    // Billing crashed after committing a delivery it never acknowledged: the broker
    // delivered it again and the inbox absorbed it.
    EXPECT_GE(summary.at("skipped_duplicates").get<int>(), 1) << run.out;
    EXPECT_EQ(summary.at("transport").get<std::string>().find(kBrokerPassword), std::string::npos);
  }
}

TEST(DemoAcrossRabbitMq, AnEmptyOrUnopenableTransportIsRefusedBeforeAnythingIsWritten) {
  const conformance::eventsourcing::TempDir dir;
  const std::string db = dir.file("demo.db");
  for (const std::string& url :
       {std::string(), "kafka://u:" + std::string(kBrokerPassword) + "@127.0.0.1/x"}) {
    const ToolRun run = run_docket({"demo", "--store", "sqlite://" + db, "--transport", url},
                                   std::nullopt, kChaosTimeLimit);
    EXPECT_EQ(run.exit_code, 1) << describe(run);
    EXPECT_NE(run.err.find("transport"), std::string::npos) << run.err;
    EXPECT_EQ(run.err.find(kBrokerPassword), std::string::npos) << run.err;
    EXPECT_FALSE(std::filesystem::exists(db)) << url;
  }
}

}  // namespace
}  // namespace docket::testing
