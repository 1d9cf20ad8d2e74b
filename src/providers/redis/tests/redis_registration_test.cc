// The Redis provider through the registry: redis:// URLs open every store it offers
// (all of docket's), a malformed one is refused before anything connects, and the
// password is masked in every message.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "docket/core/clock.h"
#include "docket/core/error.h"
#include "docket/stores/open_store.h"
#include "docket/stores/printable_store_url.h"

namespace docket {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr const char* kUrl = "redis://:hunter2@127.0.0.1:1/0";

std::string refusal(const std::function<void()>& open) {
  try {
    open();
  } catch (const ConfigurationError& e) {
    return e.what();
  }
  ADD_FAILURE() << "opened";
  return {};
}

TEST(RedisRegistration, OpensEveryStoreWithoutConnectingYet) {
  SystemClock clock;
  EXPECT_EQ(open_inbox_store(kUrl, clock)->provider_name(), "redis");
  EXPECT_EQ(open_claim_inbox_store(kUrl, clock)->provider_name(), "redis");
  EXPECT_NE(open_checkpoint_store(kUrl, clock), nullptr);
  EXPECT_EQ(open_outbox_store(kUrl, clock)->provider_name(), "redis");
  EXPECT_EQ(open_event_store(kUrl, clock)->provider_name(), "redis");
  EXPECT_EQ(open_snapshot_store(kUrl, clock)->provider_name(), "redis");
  EXPECT_EQ(open_saga_store(kUrl, clock)->provider_name(), "redis");
}

TEST(RedisRegistration, EveryStoreRefusesAMalformedUrlBeforeConnecting) {
  SystemClock clock;
  const std::string bad = "redis://:hunter2@127.0.0.1:1/0?prefix=";
  for (const auto& open : std::vector<std::function<void()>>{
           [&] { open_outbox_store(bad, clock); }, [&] { open_event_store(bad, clock); },
           [&] { open_snapshot_store(bad, clock); }, [&] { open_saga_store(bad, clock); }}) {
    const std::string message = refusal(open);
    EXPECT_THAT(message, HasSubstr("prefix"));
    EXPECT_THAT(message, Not(HasSubstr("hunter2")));
  }
}

TEST(RedisRegistration, AMalformedUrlIsRefusedWithThePasswordMasked) {
  SystemClock clock;
  const std::string message =
      refusal([&] { open_inbox_store("redis://:hunter2@127.0.0.1:1/0?pool_size=0", clock); });
  EXPECT_THAT(message, HasSubstr("pool_size='0' is not a number from 1 to 1024"));
  EXPECT_THAT(message, Not(HasSubstr("hunter2")));
  EXPECT_EQ(printable_store_url(kUrl), "redis://:***@127.0.0.1:1/0");
}

}  // namespace
}  // namespace docket
