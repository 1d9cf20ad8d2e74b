#include "observability/known_counts.h"

#include <gtest/gtest.h>

#include <chrono>
#include <memory>

#include "docket/core/clock.h"
#include "docket/core/error.h"
#include "docket/core/tenant.h"
#include "docket/outbox/outbox.h"
#include "docket/outbox/relay.h"
#include "docket/stores/open_store.h"
#include "docket/transports/in_process_transport.h"

namespace docket::testing {
namespace {

// The store `open` opens on `url`, or null when the provider offers none.
template <class Open>
auto open_offered(Open open, const std::string& url)
    -> decltype(open(url, SystemClock::instance())) {
  try {
    return open(url, SystemClock::instance());
  } catch (const ConfigurationError&) {
    return nullptr;
  }
}

void stage(OutboxStore& store, OutboxMessage message) {
  const TenantScope tenant{TenantId("acme")};
  const Outbox outbox(store);
  auto unit = store.begin();
  outbox.stage(unit->handler_transaction(), message);
  unit->commit();
}

void write_outbox(OutboxStore& store) {
  stage(store, {.event_type = "OrderPlaced", .payload = "{}", .destination = "orders"});
  stage(store, {.event_type = "OrderPlaced", .payload = "{}", .destination = "nowhere"});
  {
    InProcessTransport transport(100, {}, {.unroutable = {"nowhere"}});
    Relay relay(store, transport, RelayOptions({.max_attempts = 1}));
    relay.drain();
  }
  const Timestamp now = SystemClock::instance().now();
  stage(store, {.event_type = "OrderPlaced", .payload = "{}", .destination = "orders"});
  stage(store, {.event_type = "OrderPaid", .payload = "{}", .destination = "orders"});
  stage(store, {.event_type = "OrderPlaced",
                .payload = "{}",
                .destination = "orders",
                .deliver_at = now + std::chrono::hours(1)});
}

void write_claims(ClaimInboxStore& store) {
  const auto lease = std::chrono::seconds(300);
  const Timestamp past = SystemClock::instance().now() - std::chrono::seconds(60);
  const ClaimKey processed(TenantId("acme"), "k-1", "mailer");
  store.mark_processed(processed, store.try_claim(processed, "w", lease).token);
  for (const char* id : {"k-2", "k-3"}) {
    const ClaimKey failed(TenantId("acme"), id, "mailer");
    store.mark_failed(failed, store.try_claim(failed, "w", lease).token, {"smtp down", past});
  }
  store.try_claim(ClaimKey(TenantId("globex"), "k-4", "mailer"), "w", lease);
}

bool write_projection(CheckpointStore& checkpoints, EventStore& events) {
  if (events.capabilities().feed != FeedKind::kGlobalPositions) {
    return false;
  }
  const StreamId stream(TenantId("acme"), "account", "A-1");
  events.append(stream, ExpectedVersion::no_stream(),
                {{.type = "opened"}, {.type = "deposited"}, {.type = "withdrawn"}});
  checkpoints.set("ledger", "2");
  return true;
}

void expect_gauge(const Exposition& scraped, const std::string& name,
                  const std::map<std::string, std::string>& labels, double expected) {
  const auto family = scraped.find(name);
  ASSERT_NE(family, scraped.end()) << name << " is not exposed";
  EXPECT_EQ(family->second.type, "gauge") << name;
  EXPECT_FALSE(family->second.help.empty()) << name << " has no # HELP";
  const std::optional<double> value = family->second.value(name, labels);
  ASSERT_TRUE(value.has_value()) << name << " has no sample with the labels asked for";
  EXPECT_EQ(*value, expected) << name;
  for (const ExpositionSample& sample : family->second.samples) {
    for (const auto& [label, unused] : labels) {
      EXPECT_TRUE(sample.labels.contains(label)) << name << " sample without label " << label;
    }
  }
}

}  // namespace

KnownCounts write_known_counts(const std::string& url) {
  KnownCounts written;
  if (auto outbox = open_offered(&open_outbox_store, url)) {
    write_outbox(*outbox);
    written.outbox = true;
  }
  if (auto claims = open_offered(&open_claim_inbox_store, url)) {
    write_claims(*claims);
    written.claim_inbox = true;
  }
  auto checkpoints = open_offered(&open_checkpoint_store, url);
  auto events = open_offered(&open_event_store, url);
  if (checkpoints && events) {
    written.projections = write_projection(*checkpoints, *events);
  }
  return written;
}

void expect_store_gauges(const Exposition& scraped, const KnownCounts& written) {
  if (written.outbox) {
    expect_gauge(scraped, "docket_outbox_messages", {{"destination", "orders"}, {"status", "due"}},
                 2);
    expect_gauge(scraped, "docket_outbox_messages",
                 {{"destination", "orders"}, {"status", "scheduled"}}, 1);
    expect_gauge(scraped, "docket_outbox_messages",
                 {{"destination", "orders"}, {"status", "parked"}}, 0);
    expect_gauge(scraped, "docket_outbox_messages",
                 {{"destination", "nowhere"}, {"status", "parked"}}, 1);
    expect_gauge(scraped, "docket_outbox_backlog_messages", {}, 3);
    expect_gauge(scraped, "docket_outbox_parked_messages", {}, 1);
    const auto oldest = scraped.find("docket_outbox_oldest_due_age_seconds");
    ASSERT_NE(oldest, scraped.end());
    EXPECT_EQ(oldest->second.type, "gauge");
    const double age = oldest->second.value("docket_outbox_oldest_due_age_seconds").value_or(-1);
    EXPECT_GE(age, 0);
    EXPECT_LT(age, 600) << "the due messages were staged moments ago";
    expect_gauge(scraped, "docket_store_up", {{"store", "outbox"}}, 1);
  }
  if (written.claim_inbox) {
    expect_gauge(scraped, "docket_claim_inbox_entries", {{"status", "processed"}}, 1);
    expect_gauge(scraped, "docket_claim_inbox_entries", {{"status", "failed"}}, 2);
    expect_gauge(scraped, "docket_claim_inbox_entries", {{"status", "failed_due"}}, 2);
    expect_gauge(scraped, "docket_claim_inbox_entries", {{"status", "processing"}}, 1);
    expect_gauge(scraped, "docket_claim_inbox_entries", {{"status", "received"}}, 0);
    expect_gauge(scraped, "docket_store_up", {{"store", "claim_inbox"}}, 1);
  }
  if (written.projections) {
    expect_gauge(scraped, "docket_projection_lag_positions", {{"consumer", "ledger"}}, 2);
    const auto age = scraped.find("docket_projection_checkpoint_age_seconds");
    ASSERT_NE(age, scraped.end());
    EXPECT_EQ(age->second.type, "gauge");
    EXPECT_TRUE(
        age->second.value("docket_projection_checkpoint_age_seconds", {{"consumer", "ledger"}})
            .has_value());
    expect_gauge(scraped, "docket_store_up", {{"store", "projections"}}, 1);
  }
}

}  // namespace docket::testing
