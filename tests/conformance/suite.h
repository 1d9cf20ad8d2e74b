// The conformance suite's test base: one fresh store per test on the provider under
// test, a manual clock, a test event type, and helpers to dispatch and count.
#ifndef DOCKET_TESTS_CONFORMANCE_SUITE_H_
#define DOCKET_TESTS_CONFORMANCE_SUITE_H_

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "docket/inbox/handler_registry.h"
#include "docket/inbox/inbox_dispatcher.h"
#include "docket/inbox/inbox_schema.h"
#include "provider_fixture.h"

namespace docket::conformance {

struct Ping {
  std::string note;
};
void to_json(nlohmann::json& j, const Ping& ping);
void from_json(const nlohmann::json& j, Ping& ping);

inline constexpr std::string_view kPingType = "ping";

// An envelope of type "ping" with a valid JSON payload.
Envelope ping(std::string message_id);

// A registry with one kPingType handler written against the provider transaction Tx,
// doing nothing: a fixture's ProviderCase::typed_handlers.
template <class Tx>
HandlerRegistry noop_ping_handlers() {
  HandlerRegistry handlers;
  handlers.on<Ping>(kPingType, [](const Ping&, Tx&, HandlerContext&) {});
  return handlers;
}

class InboxConformance : public ::testing::TestWithParam<ProviderCase> {
 protected:
  void SetUp() override;
  void TearDown() override;

  // A dispatcher for `consumer` whose ping handler runs `before` (when set) and then
  // inserts one effect row with a key unique to that execution, so that processing a
  // message twice would show as two rows.
  InboxDispatcher dispatcher(std::string consumer,
                             std::function<void(const Ping&, HandlerContext&)> before = {});

  std::int64_t effects() { return fixture_->count_rows(*store_, kEffectsTable); }
  std::int64_t dedup_rows() { return fixture_->count_rows(*store_, kInboxMessagesTable); }

  ManualClock clock_{Timestamp(std::chrono::seconds(1'800'000'000))};
  std::unique_ptr<ProviderFixture> fixture_;
  std::unique_ptr<InboxStore> store_;
  std::atomic<std::int64_t> executions_ = 0;
};

// "memory", "sqlite_file", ... as the test name suffix.
std::string provider_name(const ::testing::TestParamInfo<ProviderCase>& info);

}  // namespace docket::conformance

#endif  // DOCKET_TESTS_CONFORMANCE_SUITE_H_
