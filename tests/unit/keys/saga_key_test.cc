#include "docket/keys/saga_key.h"

#include <gtest/gtest.h>

#include "docket/core/error.h"

namespace docket::keys {
namespace {

SagaTerms saga(std::string_view tenant, std::string_view type, std::string_view id) {
  return {std::string(tenant), std::string(type), std::string(id)};
}

TEST(SagaKey, DocumentedShapesForBothSentinelTenants) {
  for (std::string tenant : {"__default__", "__untenanted__"}) {
    const SagaTerms terms = saga(tenant, "OrderSaga", "order-42");
    EXPECT_EQ(compose_saga_key(Provider::kCosmosDb, terms).value, "t:" + tenant + ":order-42");
    EXPECT_EQ(compose_saga_key(Provider::kDynamoDb, terms).value, "SAGA#t:" + tenant + ":order-42");
    EXPECT_EQ(compose_saga_key(Provider::kMongoDb, terms).value, "t:" + tenant + ":order-42");
    EXPECT_EQ(compose_saga_key(Provider::kFirestore, terms).value,
              "t:" + tenant + ":order-42_OrderSaga");
  }
}

TEST(SagaKey, ParseInvertsComposeAndDropsTheTypeWhereTheKeyLacksIt) {
  const SagaTerms terms = saga("a:b", "My_Saga:V2", "id_with_underscores/#");
  for (Provider provider : {Provider::kCosmosDb, Provider::kDynamoDb, Provider::kMongoDb}) {
    const Key key = compose_saga_key(provider, terms);
    EXPECT_EQ(parse_saga_key(provider, key.value), saga("a:b", "", "id_with_underscores/#"))
        << provider_name(provider);
  }
  const Key firestore = compose_saga_key(Provider::kFirestore, terms);
  EXPECT_EQ(firestore.value, "t:a%3Ab:id%5Fwith%5Funderscores%2F%23_My_Saga%3AV2");
  EXPECT_EQ(parse_saga_key(Provider::kFirestore, firestore.value), terms);
}

TEST(SagaKey, FirestoreUnderscoreInSagaIdCannotShiftTheJoin) {
  // Unescaped, both would read t:acme:a_b_c.
  const Key one = compose_saga_key(Provider::kFirestore, saga("acme", "b_c", "a"));
  const Key two = compose_saga_key(Provider::kFirestore, saga("acme", "c", "a_b"));
  EXPECT_EQ(one.value, "t:acme:a_b_c");
  EXPECT_EQ(two.value, "t:acme:a%5Fb_c");
  EXPECT_EQ(parse_saga_key(Provider::kFirestore, "t:acme:a_b_c"), saga("acme", "b_c", "a"));
  EXPECT_EQ(parse_saga_key(Provider::kFirestore, "t:acme:ab"), std::nullopt);
}

TEST(SagaKey, CosmosIdNeverHoldsRestrictedCharacters) {
  const Key key = compose_saga_key(Provider::kCosmosDb, saga("t", "S", "a/b\\c?d#e"));
  EXPECT_EQ(key.value, "t:t:a%2Fb%5Cc%3Fd%23e");
  EXPECT_EQ(key.field, "item id");
  EXPECT_EQ(key.limit_bytes, 1023u);
}

TEST(SagaKey, ProvidersWithoutTheShapeAreRefused) {
  EXPECT_THROW(compose_saga_key(Provider::kRedis, saga("a", "b", "c")), InvalidInputError);
  EXPECT_THROW(compose_saga_key(Provider::kElasticsearch, saga("a", "b", "c")), InvalidInputError);
  EXPECT_EQ(parse_saga_key(Provider::kRedis, "t:a:c"), std::nullopt);
}

TEST(SagaTypeKey, IsTheSagaTypeVerbatimWhereItLivesBesideTheKey) {
  const SagaTerms terms = saga("acme", "MyApp.Sagas.Order`1[[X, Y]]", "1");
  const Key cosmos = compose_saga_type_key(Provider::kCosmosDb, terms);
  EXPECT_EQ(cosmos.value, "MyApp.Sagas.Order`1[[X, Y]]");
  EXPECT_EQ(cosmos.field, "partition key");
  EXPECT_EQ(cosmos.limit_bytes, 2048u);
  const Key dynamo = compose_saga_type_key(Provider::kDynamoDb, terms);
  EXPECT_EQ(dynamo.field, "sort key");
  EXPECT_EQ(dynamo.limit_bytes, 1024u);
  EXPECT_THROW(compose_saga_type_key(Provider::kMongoDb, terms), InvalidInputError);
  EXPECT_THROW(compose_saga_type_key(Provider::kFirestore, terms), InvalidInputError);
  EXPECT_THROW(compose_saga_type_key(Provider::kDynamoDb, saga("a", "", "1")), InvalidKeyTermError);
  EXPECT_THROW(compose_saga_type_key(Provider::kDynamoDb, saga("a", std::string(1025, 's'), "1")),
               KeyTooLongError);
}

}  // namespace
}  // namespace docket::keys
