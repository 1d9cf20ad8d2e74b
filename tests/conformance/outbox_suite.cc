#include "outbox_suite.h"

#include "fixture_registry.h"

namespace docket::conformance {

void OutboxConformance::SetUp() {
  fixture_ = GetParam().make();
  store_ = fixture_->open(clock_);
  EXPECT_EQ(store_->provider_name(), GetParam().provider);
  outbox_ = std::make_unique<Outbox>(*store_, clock_);
}

std::vector<std::string> OutboxConformance::stage_orders(std::size_t count,
                                                         const std::string& prefix) {
  std::vector<std::string> ids;
  for (std::size_t i = 0; i < count; ++i) {
    auto unit = store_->begin();
    const std::string order = prefix + std::to_string(i);
    fixture_->insert_order(unit->handler_transaction(), order);
    ids.push_back(
        outbox_
            ->stage(unit->handler_transaction(),
                    {.event_type = "OrderPlaced", .payload = "{\"order\":\"" + order + "\"}"})
            .to_string());
    unit->commit();
  }
  return ids;
}

std::string OutboxConformance::stage(const OutboxMessage& message) {
  auto unit = store_->begin();
  const std::string id = outbox_->stage(unit->handler_transaction(), message).to_string();
  unit->commit();
  return id;
}

std::vector<std::string> OutboxConformance::drain(InProcessTransport& transport) {
  std::vector<std::string> ids;
  auto subscription = transport.subscribe({.prefetch = 1});
  while (auto delivery = subscription.next(std::chrono::milliseconds(0))) {
    ids.push_back(delivery->message.envelope.message_id);
    subscription.acknowledge(delivery->tag);
  }
  return ids;
}

RelaySettings OutboxConformance::test_settings() {
  return RelaySettings{.poll_interval = std::chrono::milliseconds(1),
                       .max_poll_interval = std::chrono::milliseconds(1),
                       .batch_size = 10,
                       .max_attempts = 3,
                       .lease = std::chrono::seconds(30),
                       .backoff_base = std::chrono::seconds(1),
                       .backoff_cap = std::chrono::seconds(60),
                       .jitter = 0.0};
}

std::string outbox_provider_name(const ::testing::TestParamInfo<OutboxProviderCase>& info) {
  return info.param.name;
}

void PrintTo(const OutboxProviderCase& provider, std::ostream* os) {
  *os << provider.name;
}

std::vector<OutboxProviderCase> all_outbox_providers() {
  return FixtureRegistry<OutboxProviderCase>::all();
}

std::vector<OutboxProviderCase> concurrent_commit_outbox_providers() {
  return FixtureRegistry<OutboxProviderCase>::where(
      [](const OutboxProviderCase& provider) { return provider.concurrent_commits; });
}

std::vector<OutboxProviderCase> waking_outbox_providers() {
  return FixtureRegistry<OutboxProviderCase>::where(
      [](const OutboxProviderCase& provider) { return provider.wakes_relays; });
}

}  // namespace docket::conformance
