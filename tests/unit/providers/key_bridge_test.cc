// The kit's key bridge: a provider hands it docket's identities and gets src/keys'
// keys, the documented shapes for plain terms (docs/keys.md), and the same refusals
// as composing from the raw terms.
#include "providers/kit/key_bridge.h"

#include <gtest/gtest.h>

#include <string>

#include "docket/core/error.h"
#include "docket/keys/inbox_key.h"
#include "docket/keys/saga_key.h"
#include "docket/keys/stream_key.h"

namespace docket::kit {
namespace {

using keys::Provider;

const TenantId kAcme("acme");

TEST(KeyBridge, InboxEntryIdsHaveTheDocumentedShapes) {
  const ClaimKey key(kAcme, "corp_42", "MyApp.Handlers.OrderHandler");
  const std::string joined = "acme:corp_42:MyApp.Handlers.OrderHandler";
  EXPECT_EQ(inbox_entry_id(Provider::kFirestore, key).value, "inbox:" + joined);
  EXPECT_EQ(inbox_entry_id(Provider::kRedis, key).value, "inbox:" + joined);
  for (const Provider provider :
       {Provider::kElasticsearch, Provider::kCosmosDb, Provider::kMongoDb, Provider::kDynamoDb}) {
    EXPECT_EQ(inbox_entry_id(provider, key).value, joined) << keys::provider_name(provider);
  }
  EXPECT_EQ(inbox_entry_id(Provider::kDynamoDb, key).field, "partition key");
}

TEST(KeyBridge, UntenantedClaimKeysCarryTheSentinel) {
  const ClaimKey key(TenantId::untenanted(), "m-1", "H");
  EXPECT_EQ(inbox_entry_id(Provider::kFirestore, key).value, "inbox:__untenanted__:m-1:H");
}

TEST(KeyBridge, StreamAndSnapshotKeysHaveTheDocumentedShapes) {
  const StreamId stream(kAcme, "Order", "A-1001");
  EXPECT_EQ(stream_key(Provider::kCosmosDb, stream).value, "t:acme:Order:A-1001");
  EXPECT_EQ(stream_key(Provider::kDynamoDb, stream).value, "t:acme:Order:A-1001");
  EXPECT_EQ(stream_key(Provider::kMongoDb, stream).value, "t:acme:A-1001");
  EXPECT_EQ(event_document_id(Provider::kFirestore, stream, 7).value, "t:acme:Order:A-1001:7");
  EXPECT_EQ(snapshot_key(Provider::kDynamoDb, stream).value, "SNAPSHOT#t:acme:Order:A-1001");
  EXPECT_EQ(snapshot_key(Provider::kFirestore, stream).value, "t:acme:Order:A-1001");
  EXPECT_EQ(snapshot_key(Provider::kCosmosDb, stream).value, "t:acme:Order:A-1001");
}

TEST(KeyBridge, SagaKeysHaveTheDocumentedShapes) {
  const SagaId saga(TenantId::default_tenant(), "OrderSaga", "order-42");
  EXPECT_EQ(saga_key(Provider::kCosmosDb, saga).value, "t:__default__:order-42");
  EXPECT_EQ(saga_key(Provider::kDynamoDb, saga).value, "SAGA#t:__default__:order-42");
  EXPECT_EQ(saga_key(Provider::kMongoDb, saga).value, "t:__default__:order-42");
  EXPECT_EQ(saga_key(Provider::kFirestore, saga).value, "t:__default__:order-42_OrderSaga");
  EXPECT_EQ(saga_type_key(Provider::kDynamoDb, saga).value, "OrderSaga");
  EXPECT_EQ(saga_type_key(Provider::kCosmosDb, saga).value, "OrderSaga");
}

// Awkward terms go through the provider's codec exactly as src/keys composes them from
// the raw terms: the bridge passes the identity's terms, in order, and nothing else.
TEST(KeyBridge, AwkwardTermsComposeAsKeysComposesTheRawTerms) {
  const TenantId tenant("t:x");
  const StreamId stream(tenant, "Order/V2", "50% off#1");
  const keys::StreamTerms stream_terms{"t:x", "Order/V2", "50% off#1"};
  for (const Provider provider : {Provider::kCosmosDb, Provider::kDynamoDb, Provider::kMongoDb}) {
    EXPECT_EQ(stream_key(provider, stream).value,
              keys::compose_stream_key(provider, stream_terms).value);
  }
  EXPECT_EQ(event_document_id(Provider::kFirestore, stream, 3).value,
            "t:t%3Ax:Order%2FV2:50%25%20off%231:3");

  const SagaId saga(tenant, "My_Saga:V2", "id_with/#");
  EXPECT_EQ(saga_key(Provider::kFirestore, saga).value,
            keys::compose_saga_key(Provider::kFirestore, {"t:x", "My_Saga:V2", "id_with/#"}).value);

  const ClaimKey claim(tenant, "50%/x y?#", "H\xC3\xA9");
  EXPECT_EQ(inbox_entry_id(Provider::kCosmosDb, claim).value,
            "t%3Ax:50%25%2Fx%20y%3F%23:H\xC3\xA9");
}

TEST(KeyBridge, ProvidersWithoutTheShapeAreRefused) {
  const StreamId stream(kAcme, "Order", "1");
  const SagaId saga(kAcme, "OrderSaga", "1");
  for (const Provider provider : {Provider::kElasticsearch, Provider::kRedis}) {
    EXPECT_THROW(stream_key(provider, stream), InvalidInputError);
    EXPECT_THROW(snapshot_key(provider, stream), InvalidInputError);
    EXPECT_THROW(saga_key(provider, saga), InvalidInputError);
  }
  EXPECT_THROW(stream_key(Provider::kFirestore, stream), InvalidInputError);
  EXPECT_THROW(event_document_id(Provider::kDynamoDb, stream, 0), InvalidInputError);
  EXPECT_THROW(saga_type_key(Provider::kMongoDb, saga), InvalidInputError);
}

TEST(KeyBridge, ANegativeVersionIsRefused) {
  EXPECT_THROW(event_document_id(Provider::kFirestore, StreamId(kAcme, "Order", "1"), -1),
               InvalidKeyTermError);
}

// Identities accept terms up to their own maxima; a key those terms overflow once
// escaped is refused by src/keys, never truncated.
TEST(KeyBridge, KeysOverTheProviderLimitAreRefusedNamingTheTerm) {
  const std::string colons(kMaxAggregateIdBytes, ':');  // each escapes to 3 bytes
  const StreamId stream(kAcme, "Order", colons);
  try {
    stream_key(Provider::kMongoDb, stream);
    FAIL() << "a 1,500-byte aggregate id fits no MongoDB stream id";
  } catch (const KeyTooLongError& e) {
    EXPECT_NE(std::string(e.what()).find("aggregate id"), std::string::npos) << e.what();
  }
  const ClaimKey claim(kAcme, "m-1", std::string(kMaxHandlerTypeBytes, 'h'));
  EXPECT_THROW(inbox_entry_id(Provider::kElasticsearch, claim), KeyTooLongError);
  EXPECT_NO_THROW(inbox_entry_id(Provider::kFirestore, claim));
}

}  // namespace
}  // namespace docket::kit
