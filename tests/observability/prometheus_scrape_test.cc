// docket::prometheus scraped over HTTP (prometheus-cpp's exposer on a free loopback
// port, libcurl) and parsed: the store gauges of an SQLite file holding known counts
// (known_counts.h), and the counters and histograms a PrometheusObserver made of what
// the dispatcher, relay, claim runner and event store did on that file. Every family is
// named, typed (# TYPE), described (# HELP) and labelled, with values that match.
#include <gtest/gtest.h>
#include <prometheus/exposer.h>
#include <prometheus/registry.h>

#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "docket/core/error.h"
#include "docket/core/tenant.h"
#include "docket/inbox/claim_runner.h"
#include "docket/inbox/inbox_dispatcher.h"
#include "docket/outbox/outbox.h"
#include "docket/outbox/relay.h"
#include "docket/prometheus/prometheus_observer.h"
#include "docket/prometheus/store_gauges.h"
#include "docket/stores/open_store.h"
#include "docket/transports/in_process_transport.h"
#include "observability/exposition.h"
#include "observability/known_counts.h"
#include "support/unique_name.h"

namespace docket::testing {
namespace prometheus_scrape_test {

class PrometheusScrapeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = (std::filesystem::temp_directory_path() /
             (test_support::unique_name("docket-prometheus") + ".db"))
                .string();
    url_ = "sqlite://" + path_;
  }
  void TearDown() override {
    for (const char* suffix : {"", "-wal", "-shm"}) {
      std::filesystem::remove(path_ + suffix);
    }
  }

  // Serves `collectables` on a free loopback port and returns one scrape, parsed.
  static Exposition scrape(const std::vector<std::shared_ptr<prometheus::Collectable>>& all) {
    prometheus::Exposer exposer("127.0.0.1:0", 1);
    for (const auto& collectable : all) {
      exposer.RegisterCollectable(collectable);
    }
    const std::vector<int> ports = exposer.GetListeningPorts();
    if (ports.empty()) {
      throw std::runtime_error("the exposer listens on no port");
    }
    return parse_exposition(
        http_get("http://127.0.0.1:" + std::to_string(ports.front()) + "/metrics"));
  }

  std::string path_;
  std::string url_;
};

// The family `name`, checked for its type and help.
const ExpositionFamily& family(const Exposition& scraped, const std::string& name,
                               const std::string& type) {
  const auto found = scraped.find(name);
  if (found == scraped.end()) {
    throw std::runtime_error(name + " is not exposed");
  }
  EXPECT_EQ(found->second.type, type) << name;
  EXPECT_FALSE(found->second.help.empty()) << name;
  return found->second;
}

TEST_F(PrometheusScrapeTest, StoreGaugesMatchAStoreOfKnownCounts) {
  const KnownCounts written = write_known_counts(url_);
  ASSERT_TRUE(written.outbox && written.claim_inbox && written.projections);
  auto outbox = open_outbox_store(url_);
  auto claims = open_claim_inbox_store(url_);
  auto checkpoints = open_checkpoint_store(url_);
  auto events = open_event_store(url_);
  auto gauges = std::make_shared<StoreGauges>(StoreGaugeSources{.outbox = outbox.get(),
                                                                .claim_inbox = claims.get(),
                                                                .checkpoints = checkpoints.get(),
                                                                .events = events.get()});
  expect_store_gauges(scrape({gauges}), written);
}

TEST_F(PrometheusScrapeTest, NamedProjectionsAloneAreMeasured) {
  write_known_counts(url_);
  auto checkpoints = open_checkpoint_store(url_);
  checkpoints->set("outbox-pull", "1");  // not a position of the event feed
  auto events = open_event_store(url_);
  auto gauges = std::make_shared<StoreGauges>(
      StoreGaugeSources{.checkpoints = checkpoints.get(), .events = events.get()},
      StoreGaugeOptions{.projections = {"ledger"}});
  const Exposition scraped = scrape({gauges});
  const ExpositionFamily& lag = family(scraped, "docket_projection_lag_positions", "gauge");
  ASSERT_EQ(lag.samples.size(), 1U);
  EXPECT_EQ(lag.samples[0].labels.at("consumer"), "ledger");
  EXPECT_EQ(scraped.count("docket_outbox_messages"), 0U) << "no outbox was given";
}

TEST_F(PrometheusScrapeTest, ObserverCountersAndHistogramsMatchWhatHappened) {
  auto registry = std::make_shared<prometheus::Registry>();
  auto observer = std::make_shared<PrometheusObserver>(*registry);

  auto inbox_store = open_inbox_store(url_);
  HandlerRegistry handlers;
  handlers.on<nlohmann::json>("OrderPlaced", [](const nlohmann::json&, HandlerContext&) {});
  handlers.on<nlohmann::json>("OrderPaid", [](const nlohmann::json&, HandlerContext&) {
    throw std::runtime_error("the handler fails");
  });
  const InboxDispatcher inbox(*inbox_store,
                              InboxOptions("billing", DedupCheck::kBeforeHandlers, observer),
                              std::move(handlers));
  {
    const TenantScope tenant{TenantId("acme")};
    for (const char* id : {"m-1", "m-2", "m-1"}) {
      inbox.dispatch({.message_id = id, .event_type = "OrderPlaced", .payload = "{}"});
    }
    EXPECT_THROW(inbox.dispatch({.message_id = "m-3", .event_type = "OrderPaid", .payload = "{}"}),
                 std::runtime_error);
  }

  auto outbox_store = open_outbox_store(url_);
  {
    const Outbox outbox(*outbox_store);
    auto unit = outbox_store->begin();
    outbox.stage(unit->handler_transaction(),
                 {.event_type = "OrderPlaced", .payload = "{}", .destination = "orders"});
    outbox.stage(unit->handler_transaction(),
                 {.event_type = "OrderPlaced", .payload = "{}", .destination = "nowhere"});
    unit->commit();
  }
  InProcessTransport transport(100, {}, {.unroutable = {"nowhere"}});
  Relay relay(*outbox_store, transport, RelayOptions({.max_attempts = 1}, observer));
  relay.drain();

  auto claims = open_claim_inbox_store(url_);
  ClaimRunnerSettings settings;
  settings.observer = observer;
  const ClaimRunner runner(*claims, ClaimRunnerOptions("mailer", settings));
  runner.run("c-1", [] {});
  EXPECT_THROW(runner.run("c-2", [] { throw std::runtime_error("smtp down"); }),
               std::runtime_error);

  auto events = open_event_store(url_);
  events->set_observer(observer);
  const StreamId stream(TenantId("acme"), "account", "A-1");
  events->append(stream, ExpectedVersion::no_stream(), {{.type = "opened"}, {.type = "deposited"}});
  events->append(stream, ExpectedVersion::no_stream(), {{.type = "opened"}});

  const Exposition scraped = scrape({registry});
  const auto& consumed =
      family(scraped, "docket_messaging_client_consumed_messages_total", "counter");
  const std::string consumed_name = "docket_messaging_client_consumed_messages_total";
  EXPECT_EQ(consumed.value(
                consumed_name,
                {{"consumer", "billing"}, {"event_type", "OrderPlaced"}, {"outcome", "processed"}}),
            2);
  EXPECT_EQ(consumed.value(consumed_name, {{"consumer", "billing"},
                                           {"event_type", "OrderPlaced"},
                                           {"outcome", "skipped_duplicate"}}),
            1);
  EXPECT_EQ(
      consumed.value(consumed_name,
                     {{"consumer", "billing"}, {"event_type", "OrderPaid"}, {"outcome", "failed"}}),
      1);
  const auto& process = family(scraped, "docket_messaging_process_duration_seconds", "histogram");
  EXPECT_EQ(process.value("docket_messaging_process_duration_seconds_count",
                          {{"consumer", "billing"}, {"outcome", "processed"}}),
            2);
  EXPECT_EQ(process.value("docket_messaging_process_duration_seconds_bucket",
                          {{"consumer", "billing"}, {"outcome", "processed"}, {"le", "+Inf"}}),
            2);

  const auto& sent = family(scraped, "docket_messaging_client_sent_messages_total", "counter");
  EXPECT_EQ(sent.value("docket_messaging_client_sent_messages_total",
                       {{"destination", "orders"}, {"outcome", "confirmed"}}),
            1);
  EXPECT_EQ(sent.value("docket_messaging_client_sent_messages_total",
                       {{"destination", "nowhere"}, {"outcome", "parked"}}),
            1);
  family(scraped, "docket_messaging_client_operation_duration_seconds", "histogram");

  const auto& transitions = family(scraped, "docket_claim_inbox_transitions_total", "counter");
  for (const auto& [transition, count] :
       {std::pair{"claimed", 2}, std::pair{"processed", 1}, std::pair{"failed", 1}}) {
    EXPECT_EQ(transitions.value("docket_claim_inbox_transitions_total",
                                {{"handler_type", "mailer"}, {"transition", transition}}),
              count)
        << transition;
  }
  family(scraped, "docket_claim_inbox_handler_duration_seconds", "histogram");

  const auto& appends = family(scraped, "docket_eventstore_appends_total", "counter");
  EXPECT_EQ(appends.value(
                "docket_eventstore_appends_total",
                {{"provider", "sqlite"}, {"aggregate_type", "account"}, {"outcome", "appended"}}),
            1);
  EXPECT_EQ(appends.value("docket_eventstore_appends_total", {{"outcome", "conflict"}}), 1);
  EXPECT_EQ(family(scraped, "docket_eventstore_appended_events_total", "counter")
                .value("docket_eventstore_appended_events_total", {{"aggregate_type", "account"}}),
            2);
  family(scraped, "docket_eventstore_append_duration_seconds", "histogram");

  // No message id and no tenant in any label: the series stay bounded.
  for (const auto& [name, metrics] : scraped) {
    for (const ExpositionSample& sample : metrics.samples) {
      EXPECT_FALSE(sample.labels.contains("tenant")) << name;
      for (const auto& [label, value] : sample.labels) {
        EXPECT_TRUE(value.find("m-") != 0 && value.find("c-") != 0) << name << " " << label;
      }
    }
  }
}

TEST(PrometheusObserverOptions, BadBucketsAreRefused) {
  prometheus::Registry registry;
  EXPECT_THROW(PrometheusObserver(registry, {.duration_buckets = {}}), ConfigurationError);
  EXPECT_THROW(PrometheusObserver(registry, {.duration_buckets = {0.1, 0.1}}), ConfigurationError);
  EXPECT_THROW(PrometheusObserver(registry, {.duration_buckets = {-1}}), ConfigurationError);
}

TEST(PrometheusObserverOptions, TheTenantLabelIsOptIn) {
  auto registry = std::make_shared<prometheus::Registry>();
  PrometheusObserver observer(*registry, {.tenant_label = true});
  const MessageStart start{
      .consumer_or_destination = "billing", .event_type = "T", .tenant = "acme"};
  observer.on_message_end(0, start, MessageEnd{.outcome = MessageOutcome::kProcessed});
  prometheus::Exposer exposer("127.0.0.1:0", 1);
  exposer.RegisterCollectable(registry);
  const Exposition scraped = parse_exposition(http_get(
      "http://127.0.0.1:" + std::to_string(exposer.GetListeningPorts().front()) + "/metrics"));
  EXPECT_EQ(scraped.at("docket_messaging_client_consumed_messages_total")
                .value("docket_messaging_client_consumed_messages_total", {{"tenant", "acme"}}),
            1);
}

}  // namespace prometheus_scrape_test
}  // namespace docket::testing
