#include "docket/keys/provider.h"

namespace docket::keys {

std::string_view provider_name(Provider provider) noexcept {
  switch (provider) {
    case Provider::kFirestore:
      return "firestore";
    case Provider::kElasticsearch:
      return "elasticsearch";
    case Provider::kCosmosDb:
      return "cosmos";
    case Provider::kMongoDb:
      return "mongodb";
    case Provider::kRedis:
      return "redis";
    case Provider::kDynamoDb:
      return "dynamodb";
  }
  return "unknown";
}

std::string_view provider_display_name(Provider provider) noexcept {
  switch (provider) {
    case Provider::kFirestore:
      return "Firestore";
    case Provider::kElasticsearch:
      return "Elasticsearch";
    case Provider::kCosmosDb:
      return "Cosmos DB";
    case Provider::kMongoDb:
      return "MongoDB";
    case Provider::kRedis:
      return "Redis";
    case Provider::kDynamoDb:
      return "DynamoDB";
  }
  return "unknown provider";
}

std::optional<Provider> parse_provider(std::string_view name) noexcept {
  for (Provider provider : kAllProviders) {
    if (provider_name(provider) == name) {
      return provider;
    }
  }
  return std::nullopt;
}

}  // namespace docket::keys
