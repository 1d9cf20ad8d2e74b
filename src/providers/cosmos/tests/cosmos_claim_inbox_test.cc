// The Cosmos DB claim inbox's own cases against the test server, beside its conformance
// suite: the item it stores is the one docs/cosmos.md describes, an entry id over Cosmos
// DB's 1,023 bytes is refused naming the limit with nothing written, and a server that is
// down is a clear error.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "docket/core/clock.h"
#include "docket/core/error.h"
#include "docket/stores/open_store.h"
#include "providers/cosmos/cosmos_claim_item.h"
#include "providers/cosmos/cosmos_client.h"
#include "providers/cosmos/cosmos_items.h"
#include "providers/cosmos/tests/cosmos_database.h"

namespace docket::cosmos::detail {
namespace {

using ::testing::HasSubstr;
using namespace std::chrono_literals;

class CosmosClaimInboxTest : public ::testing::Test {
 protected:
  CosmosClaimInboxTest()
      : store_(open_claim_inbox_store(database_.url(), SystemClock::instance())),
        client_(parse_store_url(database_.url())) {}

  test_support::CosmosDatabase database_;
  std::unique_ptr<ClaimInboxStore> store_;
  Client client_;
};

TEST_F(CosmosClaimInboxTest, StoresTheEntryAsOneItemInItsOwnPartition) {
  const ClaimKey key(TenantId("acme:eu"), "m/1 #x", "Shop.Handler");
  ASSERT_EQ(store_->try_claim(key, "worker", 30s).outcome, ClaimOutcome::kClaimed);
  // The id of src/keys for Cosmos DB: ':' '/' '#' and space escaped in each term.
  const std::string id = "acme%3Aeu:m%2F1%20%23x:Shop.Handler";
  const std::optional<ReadItem> item =
      read_item(client_, {.container = claim::kContainer, .id = id, .partition_key = id});
  ASSERT_TRUE(item.has_value());
  EXPECT_EQ(item->body["status"], "processing");
  EXPECT_EQ(item->body["tenant"], "acme:eu");
  EXPECT_EQ(item->body["messageId"], "m/1 #x");
  EXPECT_EQ(item->body["owner"], "worker");
  EXPECT_TRUE(item->body["leaseUntil"].is_number_integer());
}

TEST_F(CosmosClaimInboxTest, AnEntryIdOverTheLimitIsRefusedAndNothingIsWritten) {
  // Within the claim key's own limits, but its ':'s escape to three bytes each: 600 + 500
  // bytes and more once composed.
  const ClaimKey key(TenantId("acme"), std::string(200, ':'), std::string(500, 'H'));
  try {
    store_->try_claim(key, "worker", 30s);
    FAIL() << "an entry id over 1,023 bytes was claimed";
  } catch (const KeyTooLongError& error) {
    EXPECT_THAT(error.what(), HasSubstr("1023"));
    EXPECT_THAT(error.what(), HasSubstr("Cosmos DB"));
  }
  EXPECT_EQ(store_->counts(std::nullopt).processing, 0u);
  EXPECT_EQ(store_->entries({.limit = 10}).entries.size(), 0u);
}

TEST(CosmosClaimInboxDown, AServerThatIsDownIsAClearError) {
  const auto store = open_claim_inbox_store("cosmos://127.0.0.1:1?database=x&key=QUJD&tls=off",
                                            SystemClock::instance());
  try {
    store->find(ClaimKey(TenantId("acme"), "m", "H"));
    FAIL() << "a server that is down answered";
  } catch (const InfrastructureError& error) {
    EXPECT_THAT(error.what(), HasSubstr("Is the server running there?"));
    EXPECT_THAT(error.what(), ::testing::Not(HasSubstr("QUJD")));
  }
}

}  // namespace
}  // namespace docket::cosmos::detail
