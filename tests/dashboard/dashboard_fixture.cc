#include "dashboard_fixture.h"

#include <chrono>
#include <stdexcept>
#include <vector>

#include "docket/core/clock.h"
#include "docket/core/tenant.h"
#include "docket/outbox/outbox.h"
#include "docket/outbox/relay.h"
#include "docket/sagas/saga_id.h"
#include "docket/stores/open_store.h"
#include "docket/transports/in_process_transport.h"

namespace docket::testing {
namespace {

std::string fixture_stage(OutboxStore& store, const char* tenant, OutboxMessage message) {
  const TenantScope scope{TenantId(tenant)};
  const Outbox outbox(store, SystemClock::instance());
  auto unit = store.begin();
  const Uuid id = outbox.stage(unit->handler_transaction(), message);
  unit->commit();
  return id.to_string();
}

}  // namespace

DashboardFixture write_dashboard_fixture(const std::string& url) {
  DashboardFixture fixture;
  const auto outbox = open_outbox_store(url);
  fixture.parked.push_back(fixture_stage(
      *outbox, "acme",
      {.event_type = "OrderPlaced", .payload = "{}", .destination = kFixtureParkedDestination}));
  fixture.parked.push_back(fixture_stage(*outbox, "acme",
                                         {.event_type = "OrderPaid",
                                          .payload = "{}",
                                          .destination = kFixtureParkedDestination,
                                          .ordering_key = "order-7"}));
  fixture.parked.push_back(fixture_stage(
      *outbox, "globex",
      {.event_type = "OrderShipped", .payload = "{}", .destination = kFixtureParkedDestination}));
  fixture.done = fixture_stage(
      *outbox, "acme", {.event_type = "OrderPlaced", .payload = "{}", .destination = "orders"});
  {
    // max_attempts 1: the first refusal parks a message.
    InProcessTransport transport(1000, {}, {.unroutable = {kFixtureParkedDestination}});
    Relay relay(*outbox, transport,
                RelayOptions({.poll_interval = std::chrono::milliseconds(10), .max_attempts = 1}));
    relay.drain();
  }
  fixture.pending = fixture_stage(
      *outbox, "acme", {.event_type = "OrderPlaced", .payload = "{}", .destination = "orders"});

  const auto claims = open_claim_inbox_store(url);
  fixture.failed = {
      {"acme", "payment-41", "ChargeCard", "card declined: insufficient funds"},
      {"globex", "payment-42", "ChargeCard", "<b id=\"injected\">gateway timeout</b> after 30s"}};
  for (const DashboardFixture::FailedEntry& entry : fixture.failed) {
    const ClaimKey key(TenantId(entry.tenant), entry.message_id, entry.handler_type);
    const ClaimResult claim = claims->try_claim(key, "fixture", std::chrono::seconds(30));
    if (!claims->mark_failed(
            key, claim.token,
            {entry.error, SystemClock::instance().now() + std::chrono::hours(1)})) {
      throw std::runtime_error("the fixture could not mark a claim inbox entry failed");
    }
  }
  fixture.processed_message_id = "mail-7";
  const ClaimKey processed(TenantId("acme"), fixture.processed_message_id, "Mailer");
  const ClaimResult claim = claims->try_claim(processed, "fixture", std::chrono::seconds(30));
  claims->mark_processed(processed, claim.token);

  const auto sagas = open_saga_store(url);
  sagas->save(SagaId(TenantId("acme"), "checkout", "O-1"), kNewSaga, "{}").value_or_throw();
  sagas->save(SagaId(TenantId("acme"), "checkout", "O-2"), kNewSaga, "{}").value_or_throw();
  sagas->save(SagaId(TenantId("acme"), "checkout", "O-3"), kNewSaga, "{}").value_or_throw();
  sagas->save(SagaId(TenantId("acme"), "checkout", "O-3"), 0, "{}", SagaStatus::kCompleted)
      .value_or_throw();
  fixture.active_sagas = 2;
  fixture.completed_sagas = 1;

  // Five events on the feed; the whole-feed consumer "order-summary" has read two.
  const auto events = open_event_store(url);
  std::vector<NewEvent> placed(5, NewEvent{.type = "OrderPlaced", .payload = "{}"});
  events->append(StreamId(TenantId("acme"), "order", "O-1"), ExpectedVersion::no_stream(), placed);
  const auto inbox = open_inbox_store(url);
  const TenantScope whole_feed{TenantId::untenanted()};
  inbox->checkpoints().set(fixture.projection_consumer, "3");  // the next position it reads
  return fixture;
}

}  // namespace docket::testing
