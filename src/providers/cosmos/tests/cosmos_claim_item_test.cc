// The claim inbox's items (cosmos_claim_item.h): every entry field round-trips exactly,
// and an item docket did not write is refused naming the field.
#include "providers/cosmos/cosmos_claim_item.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "docket/core/error.h"
#include "providers/kit/time_codec.h"

namespace docket::cosmos::detail::claim {
namespace {

TEST(CosmosClaimItem, RoundTripsEveryField) {
  ClaimEntry entry(ClaimKey(TenantId("acme"), "m:1", "Orders.Handler"));
  entry.status = ClaimStatus::kFailed;
  entry.retry_count = 3;
  entry.received_at = kit::from_micros(1'796'583'923'123'456);
  entry.updated_at = kit::from_micros(1'796'583'924'000'001);
  entry.last_error = "boom";
  entry.next_attempt_at = kit::from_micros(1'796'583'999'999'999);
  const nlohmann::json item = claim_item("id-1", entry);
  EXPECT_EQ(item["id"], "id-1");
  EXPECT_TRUE(item["owner"].is_null());
  // As the server hands it back: parsed from text.
  EXPECT_EQ(claim_entry_of(nlohmann::json::parse(item.dump()), "store"), entry);

  entry.status = ClaimStatus::kProcessing;
  entry.owner = "worker-1";
  entry.claim_id = "c-1";
  entry.lease_until = kit::from_micros(1'796'584'000'000'000);
  EXPECT_EQ(claim_entry_of(nlohmann::json::parse(claim_item("id-1", entry).dump()), "store"),
            entry);
}

TEST(CosmosClaimItem, RefusesAnItemDocketDidNotWrite) {
  ClaimEntry entry(ClaimKey(TenantId("acme"), "m", "H"));
  nlohmann::json item = claim_item("id-1", entry);
  item["status"] = "lost";
  EXPECT_THROW(claim_entry_of(item, "store"), InfrastructureError);
  item = claim_item("id-1", entry);
  item["receivedAt"] = "yesterday";
  try {
    claim_entry_of(item, "Cosmos DB claim inbox");
    FAIL() << "accepted a text receivedAt";
  } catch (const InfrastructureError& error) {
    EXPECT_THAT(error.what(), ::testing::HasSubstr("receivedAt"));
    EXPECT_THAT(error.what(), ::testing::HasSubstr("id-1"));
  }
}

}  // namespace
}  // namespace docket::cosmos::detail::claim
