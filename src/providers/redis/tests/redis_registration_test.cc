// The Redis provider through the registry: redis:// URLs open its stores, a malformed
// one is refused before anything connects, the stores it does not offer yet are refused
// naming the provider and the store, and the password is masked in every message.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>
#include <string>

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

TEST(RedisRegistration, OpensItsStoresWithoutConnectingYet) {
  SystemClock clock;
  EXPECT_EQ(open_inbox_store(kUrl, clock)->provider_name(), "redis");
  EXPECT_EQ(open_claim_inbox_store(kUrl, clock)->provider_name(), "redis");
  EXPECT_NE(open_checkpoint_store(kUrl, clock), nullptr);
}

TEST(RedisRegistration, StoresNotBuiltYetAreRefusedNamingTheProvider) {
  SystemClock clock;
  const std::string outbox = refusal([&] { open_outbox_store(kUrl, clock); });
  EXPECT_THAT(outbox, HasSubstr("the redis provider offers no outbox store"));
  EXPECT_THAT(outbox, Not(HasSubstr("hunter2")));
  EXPECT_THAT(refusal([&] { open_event_store(kUrl, clock); }),
              HasSubstr("the redis provider offers no event store"));
  EXPECT_THAT(refusal([&] { open_snapshot_store(kUrl, clock); }),
              HasSubstr("the redis provider offers no snapshot store"));
  EXPECT_THAT(refusal([&] { open_saga_store(kUrl, clock); }),
              HasSubstr("the redis provider offers no saga store"));
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
