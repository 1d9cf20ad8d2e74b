#include "docket/keys/stream_key.h"

#include <gtest/gtest.h>

#include "docket/core/error.h"

namespace docket::keys {
namespace {

StreamTerms stream(std::string_view tenant, std::string_view type, std::string_view id) {
  return {std::string(tenant), std::string(type), std::string(id)};
}

TEST(StreamKey, DocumentedShapesForBothSentinelTenants) {
  for (std::string tenant : {"__default__", "__untenanted__"}) {
    const StreamTerms terms = stream(tenant, "Order", "A-1001");
    EXPECT_EQ(compose_stream_key(Provider::kCosmosDb, terms).value,
              "t:" + tenant + ":Order:A-1001");
    EXPECT_EQ(compose_stream_key(Provider::kDynamoDb, terms).value,
              "t:" + tenant + ":Order:A-1001");
    EXPECT_EQ(compose_stream_key(Provider::kMongoDb, terms).value, "t:" + tenant + ":A-1001");
    EXPECT_EQ(compose_event_document_id(Provider::kFirestore, terms, 7).value,
              "t:" + tenant + ":Order:A-1001:7");
  }
}

TEST(StreamKey, FieldsAndLimits) {
  const StreamTerms terms = stream("acme", "Order", "1");
  const Key cosmos = compose_stream_key(Provider::kCosmosDb, terms);
  EXPECT_EQ(cosmos.limit_bytes, 2048u);
  EXPECT_EQ(cosmos.field, "streamId (partition key)");
  EXPECT_EQ(compose_stream_key(Provider::kDynamoDb, terms).field, "partition key");
  EXPECT_EQ(compose_stream_key(Provider::kMongoDb, terms).limit_bytes, 1000u);
  EXPECT_EQ(compose_event_document_id(Provider::kFirestore, terms, 0).limit_bytes, 1500u);
}

TEST(StreamKey, MongoDbStreamIdOmitsTheAggregateType) {
  const Key key = compose_stream_key(Provider::kMongoDb, stream("acme", "Order", "A:1"));
  EXPECT_EQ(key.value, "t:acme:A%3A1");
  EXPECT_EQ(parse_stream_key(Provider::kMongoDb, key.value), stream("acme", "", "A:1"));
}

TEST(StreamKey, AwkwardTermsAreEscapedAndParseBack) {
  const StreamTerms terms = stream("t:x", "Order/V2", "50% off#1");
  EXPECT_EQ(compose_stream_key(Provider::kCosmosDb, terms).value,
            "t:t%3Ax:Order%2FV2:50%25%20off%231");
  EXPECT_EQ(compose_stream_key(Provider::kDynamoDb, terms).value, "t:t%3Ax:Order/V2:50%25 off#1");
  for (Provider provider : {Provider::kCosmosDb, Provider::kDynamoDb}) {
    EXPECT_EQ(parse_stream_key(provider, compose_stream_key(provider, terms).value), terms);
  }
  const Key event = compose_event_document_id(Provider::kFirestore, terms, 12);
  EXPECT_EQ(event.value, "t:t%3Ax:Order%2FV2:50%25%20off%231:12");
  EXPECT_EQ(parse_event_document_id(Provider::kFirestore, event.value),
            (EventDocumentTerms{terms, 12}));
}

TEST(StreamKey, ProvidersWithoutTheShapeAreRefused) {
  const StreamTerms terms = stream("acme", "Order", "1");
  for (Provider provider : {Provider::kElasticsearch, Provider::kRedis, Provider::kFirestore}) {
    EXPECT_THROW(compose_stream_key(provider, terms), InvalidInputError);
    EXPECT_EQ(parse_stream_key(provider, "t:acme:Order:1"), std::nullopt);
  }
  for (Provider provider : {Provider::kCosmosDb, Provider::kMongoDb, Provider::kDynamoDb}) {
    EXPECT_THROW(compose_event_document_id(provider, terms, 1), InvalidInputError);
  }
  EXPECT_THROW(compose_snapshot_key(Provider::kRedis, terms), InvalidInputError);
  EXPECT_THROW(compose_snapshot_key(Provider::kElasticsearch, terms), InvalidInputError);
}

TEST(EventDocumentId, VersionMustBeNonNegativeAndCanonical) {
  EXPECT_EQ(compose_event_document_id(Provider::kFirestore, stream("a", "b", "c"), 0).value,
            "t:a:b:c:0");
  try {
    compose_event_document_id(Provider::kFirestore, stream("a", "b", "c"), -1);
    FAIL();
  } catch (const InvalidKeyTermError& error) {
    EXPECT_EQ(error.term(), "version");
  }
  EXPECT_EQ(parse_event_document_id(Provider::kFirestore, "t:a:b:c:9223372036854775807"),
            (EventDocumentTerms{stream("a", "b", "c"), INT64_MAX}));
  for (const char* bad : {"t:a:b:c:07", "t:a:b:c:-1", "t:a:b:c:+1", "t:a:b:c:", "t:a:b:c:1x",
                          "t:a:b:c:9223372036854775808", "t:a:b:c", "t:a:b:c:1:2"}) {
    EXPECT_EQ(parse_event_document_id(Provider::kFirestore, bad), std::nullopt) << bad;
  }
}

TEST(SnapshotKey, DocumentedShapes) {
  for (std::string tenant : {"__default__", "__untenanted__"}) {
    const StreamTerms terms = stream(tenant, "Order", "A-1001");
    const std::string shape = "t:" + tenant + ":Order:A-1001";
    EXPECT_EQ(compose_snapshot_key(Provider::kCosmosDb, terms).value, shape);
    EXPECT_EQ(compose_snapshot_key(Provider::kDynamoDb, terms).value, "SNAPSHOT#" + shape);
    EXPECT_EQ(compose_snapshot_key(Provider::kMongoDb, terms).value, shape);
    EXPECT_EQ(compose_snapshot_key(Provider::kFirestore, terms).value, shape);
    for (Provider provider :
         {Provider::kCosmosDb, Provider::kDynamoDb, Provider::kMongoDb, Provider::kFirestore}) {
      EXPECT_EQ(parse_snapshot_key(provider, compose_snapshot_key(provider, terms).value), terms);
    }
  }
  EXPECT_EQ(compose_snapshot_key(Provider::kCosmosDb, stream("a", "b", "c")).limit_bytes, 1023u);
  EXPECT_EQ(parse_snapshot_key(Provider::kDynamoDb, "t:a:b:c"), std::nullopt);
}

TEST(StreamKey, ParseRefusesNonCanonicalKeys) {
  EXPECT_EQ(parse_stream_key(Provider::kCosmosDb, "Order:A-1001"), std::nullopt);
  EXPECT_EQ(parse_stream_key(Provider::kCosmosDb, "t:acme:Order/1:A"), std::nullopt);
  EXPECT_EQ(parse_stream_key(Provider::kDynamoDb, "t:acme:Order:A:B"), std::nullopt);
  EXPECT_EQ(parse_stream_key(Provider::kDynamoDb, "t::Order:A"), std::nullopt);
  EXPECT_EQ(parse_stream_key(Provider::kMongoDb, "t:acme:Order:A"), std::nullopt);
  EXPECT_EQ(parse_stream_key(Provider::kMongoDb, "T:acme:A"), std::nullopt);
}

TEST(StreamKey, TooLongIsRefusedNamingTheProviderAndField) {
  try {
    compose_stream_key(Provider::kMongoDb, stream("acme", "Order", std::string(1000, 'x')));
    FAIL();
  } catch (const KeyTooLongError& error) {
    EXPECT_EQ(error.provider(), "MongoDB");
    EXPECT_EQ(error.limit_bytes(), 1000u);
    EXPECT_EQ(error.actual_bytes(), 1007u);
    EXPECT_NE(std::string(error.what()).find("Shorten the aggregate id"), std::string::npos);
    EXPECT_NE(std::string(error.what()).find("streamId"), std::string::npos);
  }
}

}  // namespace
}  // namespace docket::keys
