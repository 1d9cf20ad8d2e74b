// HeldClaims without a server: a remembered write is handed out once, to its claim's
// token only, a newer write of the same entry replaces it, and past kCapacity nothing
// new is remembered (a store whose claims are never ended must not grow without bound)
// while known entries still update.
#include "providers/firestore/firestore_held_claims.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>

namespace docket::firestore::detail {
namespace {

const ClaimToken kToken{.owner = "w", .claim_id = "c-1"};

// A claim of kToken's (or of `token`), written at `update_time`.
WrittenEntry written(std::string update_time, const ClaimToken& token = kToken) {
  ClaimEntry entry(ClaimKey(TenantId("acme"), "m", "H"));
  entry.status = ClaimStatus::kProcessing;
  entry.owner = token.owner;
  entry.claim_id = token.claim_id;
  return {.entry = std::move(entry), .update_time = std::move(update_time)};
}

TEST(FirestoreHeldClaims, AWriteIsHandedOutOnceAndANewerOneReplacesIt) {
  HeldClaims held;
  held.remember("a", written("t1"));
  held.remember("a", written("t2"));
  const std::optional<WrittenEntry> taken = held.take("a", kToken);
  ASSERT_TRUE(taken.has_value());
  EXPECT_EQ(taken->update_time, "t2");
  EXPECT_FALSE(held.take("a", kToken).has_value());
  EXPECT_FALSE(held.take("never", kToken).has_value());
}

// The same owner's earlier claim id, or another owner with the claim id, is not the
// remembered claim's token: nothing is handed out, and the claim stays remembered.
TEST(FirestoreHeldClaims, OnlyTheClaimsOwnTokenTakesIt) {
  HeldClaims held;
  held.remember("a", written("t1", {.owner = "w", .claim_id = "c-2"}));
  EXPECT_FALSE(held.take("a", kToken).has_value());
  EXPECT_FALSE(held.take("a", {.owner = "other", .claim_id = "c-2"}).has_value());
  const std::optional<WrittenEntry> taken = held.take("a", {.owner = "w", .claim_id = "c-2"});
  ASSERT_TRUE(taken.has_value());
  EXPECT_EQ(taken->update_time, "t1");
}

TEST(FirestoreHeldClaims, PastItsCapacityNothingNewIsRemembered) {
  HeldClaims held;
  for (std::size_t i = 0; i < HeldClaims::kCapacity; ++i) {
    held.remember("id-" + std::to_string(i), written("t"));
  }
  held.remember("one-too-many", written("t"));
  EXPECT_FALSE(held.take("one-too-many", kToken).has_value());
  held.remember("id-0", written("newer"));
  const std::optional<WrittenEntry> known = held.take("id-0", kToken);
  ASSERT_TRUE(known.has_value());
  EXPECT_EQ(known->update_time, "newer");
  // Taking one out makes room again.
  held.remember("one-too-many", written("t"));
  EXPECT_TRUE(held.take("one-too-many", kToken).has_value());
}

}  // namespace
}  // namespace docket::firestore::detail
