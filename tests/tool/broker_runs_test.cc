// `docket chaos --transport`: the producer, relay and consumer processes with a real
// broker between them (RabbitMQ, NATS JetStream, Google Pub/Sub), SIGKILLed at random, lose and
// double nothing on SQLite and PostgreSQL; on a broker of the test's own, also with the broker
// restarted; and what the broker options refuse, refused before anything is written.
// With them, `docket demo --transport` across each broker.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <tuple>
#include <vector>

#include "chaos_expectations.h"
#include "conformance/eventsourcing/temp_dir.h"
#include "conformance/fixture_registry.h"
#include "scratch_stores.h"
#include "support/loopback_http_server.h"
#include "support/own_server.h"
#include "support/scratch_database.h"
#include "tool_runner.h"

namespace docket::testing {
namespace {

// A broker the runs go across: its test server (scripts/<scripts>-start.sh, URL in
// `url_variable`), the route options the tools' destinations need on it, and how to
// start one of the test's own.
struct Broker {
  std::string name;          // the test-name suffix
  std::string url_variable;  // DOCKET_TEST_<NAME>_URL
  std::string scripts;       // scripts/<scripts>-start.sh
  std::string dir_variable;  // its start script's directory and port settings
  std::string port_variable;
  // Appended to its URL: where the demo's, chaos's and bench's destinations
  // (docket-demo.<store>.orders, docket-chaos.<run>, docket-bench.<run>....) are routed.
  std::string route;
  // Appended for a chaos run: what a killed consumer held comes back within seconds
  // (a chaos run's consumer group is its own, so the setting meets no older one).
  std::string chaos_options;
  // Whether `docket chaos --allow-broker-restart` can restart it (a local server).
  bool restartable = true;
};

std::vector<Broker> brokers() {
  std::vector<Broker> built;
#if DOCKET_TOOL_HAS_RABBITMQ
  built.push_back({"rabbitmq", "DOCKET_TEST_RABBITMQ_URL", "rabbitmq", "DOCKET_RABBITMQ_DIR",
                   "DOCKET_RABBITMQ_PORT", "exchange=docket-tools-test", "", true});
#endif
#if DOCKET_TOOL_HAS_PUBSUB
  // The emulator keeps no topics across a restart: nothing to restart into.
  built.push_back({"pubsub", "DOCKET_TEST_PUBSUB_URL", "pubsub", "DOCKET_PUBSUB_DIR",
                   "DOCKET_PUBSUB_PORT", "topic_prefix=tools-", "&ack_deadline=10", false});
#endif
#if DOCKET_TOOL_HAS_NATS
  built.push_back({"nats", "DOCKET_TEST_NATS_URL", "nats", "DOCKET_NATS_DIR", "DOCKET_NATS_PORT",
                   // A consumer's AckWait is set when it is created: the demo's (one for
                   // every run) on a fresh server, each chaos run's always.
                   "stream=DOCKET_TOOLS&subject=docket-demo.>,docket-chaos.>,docket-bench.>"
                   "&ack_wait=3s",
                   "", true});
#endif
  return built;
}

std::string with_route(const std::string& url, const Broker& broker) {
  return url + (url.find('?') == std::string::npos ? "?" : "&") + broker.route;
}

std::string shared_url(const Broker& broker) {
  const char* url = std::getenv(broker.url_variable.c_str());
  if (url == nullptr || *url == '\0') {
    throw std::runtime_error(broker.url_variable +
                             " is not set, and the runs across a broker need the real one. "
                             "Start the throwaway one and export its URL:\n  export " +
                             broker.url_variable + "=$(scripts/" + broker.scripts + "-start.sh)");
  }
  return with_route(url, broker);
}

// The password of the test brokers' URLs (scripts/rabbitmq-env.sh, nats-env.sh), which
// no output may show.
constexpr std::string_view kBrokerPassword = "docket-test-secret";

// The scratch databases of SQLite and PostgreSQL: what the issue asks the broker runs of.
std::vector<test_support::ScratchDatabaseCase> sql_stores() {
  std::vector<test_support::ScratchDatabaseCase> cases = scratch_databases_for_the_pipeline();
  std::erase_if(cases, [](const auto& c) { return c.name != "sqlite" && c.name != "postgres"; });
  return cases;
}

using BrokerAndStore = std::tuple<Broker, test_support::ScratchDatabaseCase>;

class ChaosAcrossABroker : public ::testing::TestWithParam<BrokerAndStore> {};

TEST_P(ChaosAcrossABroker, TenKillsLoseNothingAndDoubleNothing) {
  const auto& [broker, store] = GetParam();
  const auto database = store.make();
  const nlohmann::json report = expect_chaos_ok(
      {"--store", database->url(), "--transport", shared_url(broker) + broker.chaos_options});
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
  // Every order was delivered at least once, and counted unless its consumer was killed
  // between the commit and the count: a broker that redelivers after a timeout (NATS's
  // ack wait, Pub/Sub's deadline) may drain the run before that delivery comes again.
  EXPECT_GE(report.at("deliveries").get<int>() + report.at("kills_consumer").get<int>(),
            report.at("orders").get<int>())
      << report.dump();
  EXPECT_EQ(report.at("broker_restarts"), 0) << report.dump();
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ChaosAcrossABroker);
INSTANTIATE_TEST_SUITE_P(BrokersAndStores, ChaosAcrossABroker,
                         ::testing::Combine(::testing::ValuesIn(brokers()),
                                            ::testing::ValuesIn(sql_stores())),
                         [](const ::testing::TestParamInfo<BrokerAndStore>& param) {
                           return std::get<0>(param.param).name + "_" +
                                  std::get<1>(param.param).name;
                         });

// A broker of the test's own (scripts/<name>-start.sh in a fresh directory, on three
// consecutive loopback ports free when the test starts and below the ephemeral range,
// so that no connection's local port takes one: RabbitMQ's distribution and epmd ports
// are the next two), stopped with the object: restarting it ends no other test's
// connections.
class OwnBroker {
 public:
  explicit OwnBroker(const Broker& broker)
      : server_(broker.scripts, 3, [&](int port) {
          return broker.dir_variable + "=" + dir_.file(broker.name + "-" + std::to_string(port)) +
                 " " + broker.port_variable + "=" + std::to_string(port);
        }) {}
  const std::string& url() const noexcept { return server_.url(); }

 private:
  conformance::eventsourcing::TempDir dir_;
  OwnServer server_;
};

class ChaosAcrossItsOwnBroker : public ::testing::TestWithParam<Broker> {};

TEST_P(ChaosAcrossItsOwnBroker, TwentyKillsAndTwoBrokerRestartsLoseNothing) {
  const OwnBroker broker(GetParam());
  const conformance::eventsourcing::TempDir dir;
  const nlohmann::json report = expect_chaos_ok(
      {"--store", "sqlite://" + dir.file("chaos.db"), "--transport",
       with_route(broker.url(), GetParam()) + GetParam().chaos_options, "--allow-broker-restart"},
      20);
  if (report.is_null()) {
    return;
  }
  EXPECT_EQ(report.at("broker_restarts"), 2) << report.dump();
  EXPECT_EQ(report.at("unpublished"), 0) << report.dump();
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ChaosAcrossItsOwnBroker);
std::vector<Broker> restartable_brokers() {
  std::vector<Broker> found = brokers();
  std::erase_if(found, [](const Broker& broker) { return !broker.restartable; });
  return found;
}

INSTANTIATE_TEST_SUITE_P(Brokers, ChaosAcrossItsOwnBroker,
                         ::testing::ValuesIn(restartable_brokers()),
                         [](const ::testing::TestParamInfo<Broker>& param) {
                           return param.param.name;
                         });

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

TEST(ChaosCommand, ARabbitMqUrlWithoutAnExchangeIsRefused) {
  const char* url = std::getenv("DOCKET_TEST_RABBITMQ_URL");
  ASSERT_NE(url, nullptr) << "DOCKET_TEST_RABBITMQ_URL is not set: export it from "
                             "scripts/rabbitmq-start.sh";
  expect_refused({"--transport", url}, "exchange");
}

// `docket demo --transport`: the order pipeline across the test broker, billing crashing
// midway between commit and acknowledgement; the verdict holds, twice in a row on one
// store (the second run meets what the first left on the demo's queue, if anything).
class DemoAcrossABroker : public ::testing::TestWithParam<Broker> {};

TEST_P(DemoAcrossABroker, EveryOrderInvoicedOnceTwiceInARow) {
  const conformance::eventsourcing::TempDir dir;
  for (int round = 0; round < 2; ++round) {
    const ToolRun run =
        run_docket({"demo", "--store", "sqlite://" + dir.file("demo.db"), "--transport",
                    shared_url(GetParam()), "--orders", "300", "--json"},
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

// The pairs users keep their data and messages in: a Firestore service relaying to
// Pub/Sub, a DynamoDB service to each broker (and, the same code, every other pair).
TEST_P(DemoAcrossABroker, RunsOnTheDocumentStoresToo) {
  for (const test_support::ScratchDatabaseCase& store : scratch_databases_for_the_pipeline()) {
    if (store.name != "dynamodb" && store.name != "firestore") {
      continue;
    }
    SCOPED_TRACE(store.name);
    const auto database = store.make();
    const ToolRun run = run_docket({"demo", "--store", database->url(), "--transport",
                                    shared_url(GetParam()), "--orders", "30", "--json"},
                                   std::nullopt, kChaosTimeLimit);
    ASSERT_EQ(run.exit_code, 0) << describe(run);
    const auto summary = nlohmann::json::parse(run.out, nullptr, false);
    ASSERT_FALSE(summary.is_discarded()) << describe(run);
    EXPECT_EQ(summary.at("ok"), true) << run.out;
    EXPECT_EQ(summary.at("invoices"), 30) << run.out;
    EXPECT_EQ(summary.at("duplicates_found"), 0) << run.out;
  }
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(DemoAcrossABroker);
INSTANTIATE_TEST_SUITE_P(Brokers, DemoAcrossABroker, ::testing::ValuesIn(brokers()),
                         [](const ::testing::TestParamInfo<Broker>& param) {
                           return param.param.name;
                         });

TEST(DemoCommand, AnEmptyOrUnopenableTransportIsRefusedBeforeAnythingIsWritten) {
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
