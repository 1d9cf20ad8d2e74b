// KnownVersions without a server: a version is known once seen, with every version
// below it; a lower sighting does not lower it; past kCapacity streams, a stream learned
// evicts another rather than grow the map.
#include "providers/firestore/firestore_known_versions.h"

#include <gtest/gtest.h>

#include <string>

namespace docket::firestore::detail {
namespace {

TEST(FirestoreKnownVersions, AVersionSeenIsKnownWithEveryVersionBelowIt) {
  KnownVersions known;
  EXPECT_FALSE(known.exists("s", 0));
  known.saw("s", 3);
  EXPECT_TRUE(known.exists("s", 0));
  EXPECT_TRUE(known.exists("s", 3));
  EXPECT_FALSE(known.exists("s", 4));
  known.saw("s", 1);
  EXPECT_TRUE(known.exists("s", 3));
  EXPECT_FALSE(known.exists("other", 0));
}

TEST(FirestoreKnownVersions, PastItsCapacityAStreamLearnedEvictsAnother) {
  KnownVersions known;
  for (std::size_t i = 0; i < KnownVersions::kCapacity; ++i) {
    known.saw("s-" + std::to_string(i), 0);
  }
  known.saw("one-more", 5);
  EXPECT_TRUE(known.exists("one-more", 5));
  std::size_t still_known = 0;
  for (std::size_t i = 0; i < KnownVersions::kCapacity; ++i) {
    still_known += known.exists("s-" + std::to_string(i), 0) ? 1 : 0;
  }
  EXPECT_EQ(still_known, KnownVersions::kCapacity - 1);
}

}  // namespace
}  // namespace docket::firestore::detail
