#include "docket/keys/legacy.h"

#include <gtest/gtest.h>

#include "docket/core/error.h"
#include "docket/keys/saga_key.h"
#include "docket/keys/stream_key.h"

namespace docket::keys {
namespace {

TEST(LegacyStreamKey, UntenantedShapesAreRecognised) {
  EXPECT_TRUE(is_legacy_untenanted_stream_key(Provider::kCosmosDb, "Order:A-1001"));
  EXPECT_TRUE(is_legacy_untenanted_stream_key(Provider::kDynamoDb, "Order:A-1001"));
  EXPECT_TRUE(is_legacy_untenanted_stream_key(Provider::kMongoDb, "A-1001"));
  EXPECT_TRUE(is_legacy_untenanted_stream_key(Provider::kFirestore, "Order:A-1001:3"));
}

TEST(LegacyStreamKey, CurrentKeysAreNotLegacy) {
  const StreamTerms terms{"__default__", "Order", "A-1001"};
  for (Provider provider : {Provider::kCosmosDb, Provider::kDynamoDb, Provider::kMongoDb}) {
    EXPECT_FALSE(
        is_legacy_untenanted_stream_key(provider, compose_stream_key(provider, terms).value))
        << provider_name(provider);
  }
  EXPECT_FALSE(is_legacy_untenanted_stream_key(
      Provider::kFirestore, compose_event_document_id(Provider::kFirestore, terms, 3).value));
}

TEST(LegacyStreamKey, ProvidersWithoutStreamsAreRefused) {
  EXPECT_THROW(is_legacy_untenanted_stream_key(Provider::kRedis, "x"), InvalidInputError);
  EXPECT_THROW(is_legacy_untenanted_stream_key(Provider::kElasticsearch, "x"), InvalidInputError);
}

TEST(LegacySagaKey, UntenantedShapesAreRecognised) {
  EXPECT_TRUE(is_legacy_untenanted_saga_key(Provider::kCosmosDb, "order-42"));
  EXPECT_TRUE(is_legacy_untenanted_saga_key(Provider::kMongoDb, "order-42"));
  EXPECT_TRUE(is_legacy_untenanted_saga_key(Provider::kDynamoDb, "SAGA#order-42"));
  EXPECT_TRUE(is_legacy_untenanted_saga_key(Provider::kFirestore, "order-42_OrderSaga"));
  // The tenant segment before the SAGA# prefix is not the current shape either.
  EXPECT_TRUE(is_legacy_untenanted_saga_key(Provider::kDynamoDb, "t:acme:SAGA#order-42"));
}

TEST(LegacySagaKey, CurrentKeysAreNotLegacy) {
  const SagaTerms terms{"__untenanted__", "OrderSaga", "order-42"};
  for (Provider provider :
       {Provider::kCosmosDb, Provider::kDynamoDb, Provider::kMongoDb, Provider::kFirestore}) {
    EXPECT_FALSE(is_legacy_untenanted_saga_key(provider, compose_saga_key(provider, terms).value))
        << provider_name(provider);
  }
  EXPECT_THROW(is_legacy_untenanted_saga_key(Provider::kRedis, "x"), InvalidInputError);
}

TEST(LegacySagaKey, ReKeyingAPlainLegacyKeyByPrefixingGivesTheCurrentKey) {
  // The re-key procedure of docs/keys.md, for plain terms.
  EXPECT_EQ(std::string("SAGA#") + "t:__default__:" + "order-42",
            compose_saga_key(Provider::kDynamoDb, {"__default__", "OrderSaga", "order-42"}).value);
  EXPECT_EQ("t:__default__:" + std::string("Order:A-1001"),
            compose_stream_key(Provider::kCosmosDb, {"__default__", "Order", "A-1001"}).value);
}

}  // namespace
}  // namespace docket::keys
