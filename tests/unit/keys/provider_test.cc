#include "docket/keys/provider.h"

#include <gtest/gtest.h>

namespace docket::keys {
namespace {

TEST(Provider, NamesRoundTrip) {
  for (Provider provider : kAllProviders) {
    EXPECT_EQ(parse_provider(provider_name(provider)), provider);
  }
  EXPECT_EQ(provider_name(Provider::kCosmosDb), "cosmos");
  EXPECT_EQ(provider_display_name(Provider::kCosmosDb), "Cosmos DB");
  EXPECT_EQ(provider_display_name(Provider::kDynamoDb), "DynamoDB");
}

TEST(Provider, UnknownNameIsNotAProvider) {
  EXPECT_EQ(parse_provider("Firestore"), std::nullopt);
  EXPECT_EQ(parse_provider("cosmosdb"), std::nullopt);
  EXPECT_EQ(parse_provider(""), std::nullopt);
}

}  // namespace
}  // namespace docket::keys
