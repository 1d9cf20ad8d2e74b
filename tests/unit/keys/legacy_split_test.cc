// Splitting legacy untenanted keys into their raw terms (keys/legacy_split.h), and the
// key range of one tenant (keys/tenant_prefix.h).
#include "docket/keys/legacy_split.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "docket/core/error.h"
#include "docket/keys/saga_key.h"
#include "docket/keys/stream_key.h"
#include "docket/keys/tenant_prefix.h"

namespace docket::keys {
namespace {

using ::testing::HasSubstr;

const std::vector<std::string> kNoTypes;

TEST(LegacySplit, OneSeparatorSplitsTheStreamKey) {
  const LegacyStreamSplit split =
      split_legacy_stream_key(Provider::kDynamoDb, "Order:A-1001", {}, kNoTypes);
  ASSERT_TRUE(split.split()) << split.refusal;
  EXPECT_EQ(split.aggregate_type, "Order");
  EXPECT_EQ(split.aggregate_id, "A-1001");
  EXPECT_FALSE(split.version.has_value());
  // Raw terms: the '%' is the term's own byte, escaped when the new key is composed.
  const LegacyStreamSplit raw =
      split_legacy_stream_key(Provider::kDynamoDb, "Order:50%/x", {}, kNoTypes);
  ASSERT_TRUE(raw.split()) << raw.refusal;
  EXPECT_EQ(raw.aggregate_id, "50%/x");
  EXPECT_EQ(
      compose_stream_key(Provider::kDynamoDb, {"__default__", raw.aggregate_type, raw.aggregate_id})
          .value,
      "t:__default__:Order:50%25/x");
}

TEST(LegacySplit, FirestoreEventIdsEndInTheirVersion) {
  const LegacyStreamSplit split =
      split_legacy_stream_key(Provider::kFirestore, "Order:A-1001:12", {}, kNoTypes);
  ASSERT_TRUE(split.split()) << split.refusal;
  EXPECT_EQ(split.aggregate_type, "Order");
  EXPECT_EQ(split.aggregate_id, "A-1001");
  EXPECT_EQ(split.version, 12);
  for (const char* bad : {"Order:A-1001", "Order:A-1001:x", "Order:A-1001:07", "Order"}) {
    EXPECT_FALSE(split_legacy_stream_key(Provider::kFirestore, bad, {}, kNoTypes).split()) << bad;
  }
}

TEST(LegacySplit, SeveralSeparatorsAreRefusedNamingTheCandidates) {
  const LegacyStreamSplit split =
      split_legacy_stream_key(Provider::kDynamoDb, "Order:A:1", {}, kNoTypes);
  EXPECT_FALSE(split.split());
  EXPECT_THAT(split.refusal, HasSubstr("cannot be told apart"));
  EXPECT_THAT(split.refusal, HasSubstr("aggregate type 'Order' with aggregate id 'A:1'"));
  EXPECT_THAT(split.refusal, HasSubstr("aggregate type 'Order:A' with aggregate id '1'"));
  EXPECT_THAT(split.refusal, HasSubstr("--aggregate-type"));
}

TEST(LegacySplit, TheOneDeclaredTypeThatFitsSplitsIt) {
  const std::vector<std::string> types{"Invoice", "Order"};
  const LegacyStreamSplit split =
      split_legacy_stream_key(Provider::kDynamoDb, "Order:A:1", {}, types);
  ASSERT_TRUE(split.split()) << split.refusal;
  EXPECT_EQ(split.aggregate_id, "A:1");
  const std::vector<std::string> both{"Order", "Order:A"};
  const LegacyStreamSplit two = split_legacy_stream_key(Provider::kDynamoDb, "Order:A:1", {}, both);
  EXPECT_FALSE(two.split());
  EXPECT_THAT(two.refusal, HasSubstr("more than one"));
}

TEST(LegacySplit, NoSeparatorOrAnEmptyTermIsRefused) {
  EXPECT_THAT(split_legacy_stream_key(Provider::kDynamoDb, "Order", {}, kNoTypes).refusal,
              HasSubstr("holds no ':'"));
  EXPECT_THAT(split_legacy_stream_key(Provider::kDynamoDb, ":A", {}, kNoTypes).refusal,
              HasSubstr("empty aggregate type"));
  EXPECT_THAT(split_legacy_stream_key(Provider::kDynamoDb, "Order:", {}, kNoTypes).refusal,
              HasSubstr("empty aggregate id"));
}

TEST(LegacySplit, TheRecordsOwnFieldsNameTheSplitAndMustAgree) {
  const LegacyStreamSplit split = split_legacy_stream_key(Provider::kFirestore, "Order:A:1:0",
                                                          {.type = "Order:A", .id = "1"}, kNoTypes);
  ASSERT_TRUE(split.split()) << split.refusal;
  EXPECT_EQ(split.aggregate_type, "Order:A");
  const LegacyStreamSplit by_type = split_legacy_stream_key(
      Provider::kFirestore, "Order:A:1:0", {.type = "Order", .id = std::nullopt}, kNoTypes);
  ASSERT_TRUE(by_type.split()) << by_type.refusal;
  EXPECT_EQ(by_type.aggregate_id, "A:1");
  const LegacyStreamSplit disagree = split_legacy_stream_key(
      Provider::kFirestore, "Order:A:1:0", {.type = "Invoice", .id = "A:1"}, kNoTypes);
  EXPECT_FALSE(disagree.split());
  EXPECT_THAT(disagree.refusal, HasSubstr("its own fields name"));
}

TEST(LegacySplit, SagaKeys) {
  const LegacySagaSplit dynamo =
      split_legacy_saga_key(Provider::kDynamoDb, "SAGA#O:1_x", "checkout", {}, kNoTypes);
  ASSERT_TRUE(dynamo.split()) << dynamo.refusal;
  EXPECT_EQ(dynamo.saga_id, "O:1_x");
  EXPECT_EQ(dynamo.saga_type, "checkout");
  EXPECT_FALSE(split_legacy_saga_key(Provider::kDynamoDb, "O-1", "checkout", {}, kNoTypes).split());
  EXPECT_FALSE(
      split_legacy_saga_key(Provider::kDynamoDb, "SAGA#", "checkout", {}, kNoTypes).split());

  const LegacySagaSplit firestore =
      split_legacy_saga_key(Provider::kFirestore, "O-1_checkout", {}, {}, kNoTypes);
  ASSERT_TRUE(firestore.split()) << firestore.refusal;
  EXPECT_EQ(firestore.saga_id, "O-1");
  EXPECT_EQ(firestore.saga_type, "checkout");
  // Saga ids and types may hold '_': the type named, or the document's fields, decide.
  EXPECT_FALSE(
      split_legacy_saga_key(Provider::kFirestore, "O_1_check_out", {}, {}, kNoTypes).split());
  const std::vector<std::string> types{"check_out"};
  const LegacySagaSplit named =
      split_legacy_saga_key(Provider::kFirestore, "O_1_check_out", {}, {}, types);
  ASSERT_TRUE(named.split()) << named.refusal;
  EXPECT_EQ(named.saga_id, "O_1");
  const LegacySagaSplit fields = split_legacy_saga_key(
      Provider::kFirestore, "O_1_check_out", {}, {.type = std::nullopt, .id = "O_1"}, kNoTypes);
  ASSERT_TRUE(fields.split()) << fields.refusal;
  EXPECT_EQ(fields.saga_type, "check_out");
}

// Cosmos DB's legacy streamId is DynamoDB's shape, and splits (or is refused) alike; the
// new key is composed with Cosmos DB's escape.
TEST(LegacySplit, CosmosDbStreamIdsSplitAsDynamoDbKeys) {
  const LegacyStreamSplit split =
      split_legacy_stream_key(Provider::kCosmosDb, "Order:50%/x", {}, kNoTypes);
  ASSERT_TRUE(split.split()) << split.refusal;
  EXPECT_EQ(split.aggregate_type, "Order");
  EXPECT_EQ(split.aggregate_id, "50%/x");
  EXPECT_FALSE(split.version.has_value());
  EXPECT_EQ(compose_stream_key(Provider::kCosmosDb,
                               {"__default__", split.aggregate_type, split.aggregate_id})
                .value,
            "t:__default__:Order:50%25%2Fx");  // '/' is no byte of a Cosmos DB id
  EXPECT_THAT(split_legacy_stream_key(Provider::kCosmosDb, "Order:A:1", {}, kNoTypes).refusal,
              HasSubstr("cannot be told apart"));
  const std::vector<std::string> types{"Order"};
  EXPECT_EQ(split_legacy_stream_key(Provider::kCosmosDb, "Order:A:1", {}, types).aggregate_id,
            "A:1");
  // The item's own aggregateType and aggregateId fields decide, and must agree.
  EXPECT_EQ(split_legacy_stream_key(Provider::kCosmosDb, "Order:A:1",
                                    {.type = "Order:A", .id = "1"}, kNoTypes)
                .aggregate_type,
            "Order:A");
  EXPECT_THAT(split_legacy_stream_key(Provider::kCosmosDb, "Order:A:1",
                                      {.type = "Invoice", .id = "A:1"}, kNoTypes)
                  .refusal,
              HasSubstr("its own fields name"));
  EXPECT_THAT(split_legacy_stream_key(Provider::kCosmosDb, "Order", {}, kNoTypes).refusal,
              HasSubstr("holds no ':'"));
}

// A Cosmos DB legacy saga id is the saga id whole, whatever it holds; the saga type is
// its partition key value. Its own fields, where present, must agree.
TEST(LegacySplit, CosmosDbSagaIdsAreTheSagaIdInTheirTypesPartition) {
  const LegacySagaSplit split =
      split_legacy_saga_key(Provider::kCosmosDb, "O:1_x", "check:out", {}, kNoTypes);
  ASSERT_TRUE(split.split()) << split.refusal;
  EXPECT_EQ(split.saga_id, "O:1_x");
  EXPECT_EQ(split.saga_type, "check:out");
  const LegacySagaSplit agreeing = split_legacy_saga_key(
      Provider::kCosmosDb, "O-1", "checkout", {.type = "checkout", .id = "O-1"}, kNoTypes);
  EXPECT_TRUE(agreeing.split()) << agreeing.refusal;
  EXPECT_THAT(split_legacy_saga_key(Provider::kCosmosDb, "O-1", "checkout",
                                    {.type = std::nullopt, .id = "O-2"}, kNoTypes)
                  .refusal,
              HasSubstr("its own sagaId field names"));
  EXPECT_THAT(split_legacy_saga_key(Provider::kCosmosDb, "O-1", "checkout",
                                    {.type = "refund", .id = std::nullopt}, kNoTypes)
                  .refusal,
              HasSubstr("not of the saga type 'refund'"));
  EXPECT_THAT(split_legacy_saga_key(Provider::kCosmosDb, "", "checkout", {}, kNoTypes).refusal,
              HasSubstr("empty id"));
  EXPECT_THAT(split_legacy_saga_key(Provider::kCosmosDb, "O-1", "", {}, kNoTypes).refusal,
              HasSubstr("empty saga type"));
}

TEST(LegacySplit, ProvidersWithoutTheReKeyAreRefused) {
  EXPECT_THROW(split_legacy_stream_key(Provider::kMongoDb, "Order:A", {}, kNoTypes),
               InvalidInputError);
  EXPECT_THROW(split_legacy_saga_key(Provider::kMongoDb, "O-1", {}, {}, kNoTypes),
               InvalidInputError);
}

TEST(TenantKeyRange, CoversTheTenantsKeysAndNoOtherTenants) {
  const TenantKeyRange streams = stream_tenant_range(Provider::kDynamoDb, "ac:me");
  EXPECT_EQ(streams.from, "t:ac%3Ame:");
  EXPECT_EQ(streams.until, "t:ac%3Ame;");
  const std::string key = compose_stream_key(Provider::kDynamoDb, {"ac:me", "Order", "A-1"}).value;
  EXPECT_TRUE(key >= streams.from && key < streams.until);
  const std::string other =
      compose_stream_key(Provider::kDynamoDb, {"ac:me2", "Order", "A-1"}).value;
  EXPECT_FALSE(other >= streams.from && other < streams.until);
  EXPECT_EQ(saga_tenant_range(Provider::kDynamoDb, "acme").from, "SAGA#t:acme:");
  const std::string saga =
      compose_saga_key(Provider::kFirestore, {"acme", "checkout", "O_1"}).value;
  const TenantKeyRange sagas = saga_tenant_range(Provider::kFirestore, "acme");
  EXPECT_TRUE(saga >= sagas.from && saga < sagas.until);
  EXPECT_THROW(stream_tenant_range(Provider::kDynamoDb, ""), InvalidInputError);
  EXPECT_THROW(stream_tenant_range(Provider::kCosmosDb, "acme"), InvalidInputError);
}

}  // namespace
}  // namespace docket::keys
