// The key shapes docket composes, with limits (storage providers: src/providers/registry.h).
//
// Thread-safety: pure functions over constants.
#ifndef DOCKET_KEYS_PROVIDER_H_
#define DOCKET_KEYS_PROVIDER_H_

#include <array>
#include <optional>
#include <string_view>

namespace docket::keys {

enum class Provider {
  kFirestore,
  kElasticsearch,
  kCosmosDb,
  kMongoDb,
  kRedis,
  kDynamoDb,
};

inline constexpr std::array<Provider, 6> kAllProviders = {
    Provider::kFirestore, Provider::kElasticsearch, Provider::kCosmosDb,
    Provider::kMongoDb,   Provider::kRedis,         Provider::kDynamoDb,
};

// The command-line name: "firestore", "elasticsearch", "cosmos", "mongodb", "redis",
// "dynamodb".
std::string_view provider_name(Provider provider) noexcept;

// The product name used in messages: "Firestore", "Elasticsearch", "Cosmos DB", ...
std::string_view provider_display_name(Provider provider) noexcept;

// Inverse of provider_name(); nullopt for an unknown name.
std::optional<Provider> parse_provider(std::string_view name) noexcept;

}  // namespace docket::keys

#endif  // DOCKET_KEYS_PROVIDER_H_
