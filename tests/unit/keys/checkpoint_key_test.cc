#include "docket/keys/checkpoint_key.h"

#include <gtest/gtest.h>

#include "docket/core/error.h"

namespace docket::keys {
namespace {

CheckpointTerms checkpoint(std::string_view tenant, std::string_view consumer) {
  return {std::string(tenant), std::string(consumer)};
}

TEST(CheckpointKey, FirestoreShapeCarriesTheTenantAndEncodesEachTerm) {
  EXPECT_EQ(
      compose_checkpoint_key(Provider::kFirestore, checkpoint("__untenanted__", "orders")).value,
      "t:__untenanted__:orders");
  const Key awkward = compose_checkpoint_key(Provider::kFirestore, checkpoint("a:b", "c/d:e"));
  EXPECT_EQ(awkward.value, "t:a%3Ab:c%2Fd%3Ae");
  EXPECT_EQ(parse_checkpoint_key(Provider::kFirestore, awkward.value), checkpoint("a:b", "c/d:e"));
}

TEST(CheckpointKey, CosmosDbShapeEscapesWhatAnItemIdMayNotHold) {
  const Key awkward =
      compose_checkpoint_key(Provider::kCosmosDb, checkpoint("a:b", "c/d e?f#g\\h%"));
  EXPECT_EQ(awkward.value, "t:a%3Ab:c%2Fd%20e%3Ff%23g%5Ch%25");
  EXPECT_EQ(parse_checkpoint_key(Provider::kCosmosDb, awkward.value),
            checkpoint("a:b", "c/d e?f#g\\h%"));
  // Multi-byte UTF-8 is kept as it is, unlike Firestore's full encoding.
  EXPECT_EQ(compose_checkpoint_key(Provider::kCosmosDb, checkpoint("t", "caf\xC3\xA9")).value,
            "t:t:caf\xC3\xA9");
  EXPECT_EQ(compose_checkpoint_key(Provider::kCosmosDb, checkpoint("t", std::string(1019, 'c')))
                .value.size(),
            1023U);
  EXPECT_THROW(compose_checkpoint_key(Provider::kCosmosDb, checkpoint("t", std::string(1020, 'c'))),
               KeyTooLongError);
}

TEST(CheckpointKey, ParseAcceptsOnlyCanonicalKeys) {
  EXPECT_EQ(parse_checkpoint_key(Provider::kFirestore, "t:a:b:c"), std::nullopt);
  EXPECT_EQ(parse_checkpoint_key(Provider::kFirestore, "t:a:%2f"), std::nullopt);
  EXPECT_EQ(parse_checkpoint_key(Provider::kFirestore, "x:a:b"), std::nullopt);
  EXPECT_EQ(parse_checkpoint_key(Provider::kDynamoDb, "t:a:b"), std::nullopt);
}

TEST(CheckpointKey, RefusesBadTermsAndProvidersWithoutTheShape) {
  EXPECT_THROW(compose_checkpoint_key(Provider::kFirestore, checkpoint("", "c")),
               InvalidKeyTermError);
  EXPECT_THROW(compose_checkpoint_key(Provider::kFirestore, checkpoint("t", "\xC3")),
               InvalidKeyTermError);
  EXPECT_THROW(
      compose_checkpoint_key(Provider::kFirestore, checkpoint("t", std::string(1500, 'c'))),
      KeyTooLongError);
  EXPECT_THROW(compose_checkpoint_key(Provider::kDynamoDb, checkpoint("t", "c")),
               InvalidInputError);
}

}  // namespace
}  // namespace docket::keys
