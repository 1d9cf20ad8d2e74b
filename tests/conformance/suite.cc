#include "suite.h"

#include <utility>

#include "fixture_registry.h"

namespace docket::conformance {

void to_json(nlohmann::json& j, const Ping& ping) {
  j = nlohmann::json{{"note", ping.note}};
}
void from_json(const nlohmann::json& j, Ping& ping) {
  j.at("note").get_to(ping.note);
}

Envelope ping(std::string message_id) {
  Envelope envelope;
  envelope.message_id = std::move(message_id);
  envelope.event_type = std::string(kPingType);
  envelope.payload = R"({"note":"hello"})";
  envelope.occurred_at = Timestamp(std::chrono::seconds(1'700'000'000));
  return envelope;
}

void InboxConformance::SetUp() {
  fixture_ = GetParam().make();
  store_ = fixture_->open(clock_);
  EXPECT_EQ(store_->provider_name(), GetParam().provider);
}

void InboxConformance::TearDown() {
  store_.reset();
}

InboxDispatcher InboxConformance::dispatcher(
    std::string consumer, std::function<void(const Ping&, HandlerContext&)> before) {
  HandlerRegistry handlers;
  fixture_->on_ping(handlers,
                    [this, before = std::move(before)](const Ping& event, HandlerContext& ctx) {
                      if (before) {
                        before(event, ctx);
                      }
                      const std::int64_t n = executions_.fetch_add(1);
                      return ctx.envelope().message_id + "#" + std::to_string(n);
                    });
  return InboxDispatcher(*store_, InboxOptions(std::move(consumer)), std::move(handlers));
}

std::string provider_name(const ::testing::TestParamInfo<ProviderCase>& info) {
  return info.param.name;
}

void PrintTo(const ProviderCase& provider, std::ostream* os) {
  *os << provider.name;
}

std::vector<ProviderCase> all_providers() {
  return FixtureRegistry<ProviderCase>::all();
}

std::vector<ProviderCase> multi_process_providers() {
  return FixtureRegistry<ProviderCase>::where(
      [](const ProviderCase& provider) { return provider.multi_process; });
}

}  // namespace docket::conformance
