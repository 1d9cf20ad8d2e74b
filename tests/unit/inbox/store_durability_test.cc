// store_durability states nothing for a provider whose commits are durable by its own
// design (memory: keeps nothing past the process, and its documentation says so), and
// refuses a URL no provider of this build owns, as opening a store does. What a Redis
// server's settings give is stated from the server (redis_client_test.cc).
#include "docket/stores/store_durability.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "docket/core/error.h"

namespace docket {
namespace {

TEST(StoreDurability, AProviderWithoutServerSettingsStatesNothing) {
  EXPECT_EQ(store_durability("memory:"), std::nullopt);
}

TEST(StoreDurability, AUrlNoProviderOwnsIsRefusedNamingIt) {
  try {
    store_durability("nosuch://host/db");
    FAIL() << "no refusal";
  } catch (const ConfigurationError& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("nosuch://host/db"));
  }
}

}  // namespace
}  // namespace docket
