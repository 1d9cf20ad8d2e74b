// HeldClaims without a server: a remembered write is handed out once, a newer write of
// the same entry replaces it, and past kCapacity nothing new is remembered (a store whose
// claims are never ended must not grow without bound) while known entries still update.
#include "providers/firestore/firestore_held_claims.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>

namespace docket::firestore::detail {
namespace {

WrittenEntry written(std::string update_time) {
  return {.entry = ClaimEntry(ClaimKey(TenantId("acme"), "m", "H")),
          .update_time = std::move(update_time)};
}

TEST(FirestoreHeldClaims, AWriteIsHandedOutOnceAndANewerOneReplacesIt) {
  HeldClaims held;
  held.remember("a", written("t1"));
  held.remember("a", written("t2"));
  const std::optional<WrittenEntry> taken = held.take("a");
  ASSERT_TRUE(taken.has_value());
  EXPECT_EQ(taken->update_time, "t2");
  EXPECT_FALSE(held.take("a").has_value());
  EXPECT_FALSE(held.take("never").has_value());
}

TEST(FirestoreHeldClaims, PastItsCapacityNothingNewIsRemembered) {
  HeldClaims held;
  for (std::size_t i = 0; i < HeldClaims::kCapacity; ++i) {
    held.remember("id-" + std::to_string(i), written("t"));
  }
  held.remember("one-too-many", written("t"));
  EXPECT_FALSE(held.take("one-too-many").has_value());
  held.remember("id-0", written("newer"));
  const std::optional<WrittenEntry> known = held.take("id-0");
  ASSERT_TRUE(known.has_value());
  EXPECT_EQ(known->update_time, "newer");
  // Taking one out makes room again.
  held.remember("one-too-many", written("t"));
  EXPECT_TRUE(held.take("one-too-many").has_value());
}

}  // namespace
}  // namespace docket::firestore::detail
