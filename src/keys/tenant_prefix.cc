#include "docket/keys/tenant_prefix.h"

#include "docket/core/error.h"
#include "keys/key_builder.h"
#include "keys/limits.h"

namespace docket::keys {
// Named, not anonymous: unity builds join this file with others of src/keys.
namespace tenant_prefix_impl {

using detail::KeyBuilder;

// The saga key prefix DynamoDB puts before the tenant segment (saga_key.cc).
constexpr std::string_view kDynamoSagaPrefix = "SAGA#";

TenantKeyRange range(Provider provider, std::string_view what, std::string_view prefix,
                     std::string_view tenant) {
  KeyBuilder key(provider, what, detail::kDynamoPartitionKey, KeyBuilder::Mode::kThrow);
  key.constant(prefix);
  key.constant(detail::kTenantMarker);
  key.term("tenant", tenant);
  key.constant(detail::kSeparatorText);
  TenantKeyRange result{.from = std::move(key).finish().value, .until = {}};
  // The final ':' raised by one byte: past every key that begins with the prefix.
  result.until = result.from;
  result.until.back() = static_cast<char>(detail::kSeparator + 1);
  return result;
}

[[noreturn]] void refuse(Provider provider, std::string_view what) {
  throw InvalidInputError(std::string(provider_display_name(provider)) + " has no " +
                          std::string(what) +
                          " range in docket; it exists for DynamoDB and Firestore.");
}

}  // namespace tenant_prefix_impl

TenantKeyRange stream_tenant_range(Provider provider, std::string_view tenant) {
  if (provider != Provider::kDynamoDb && provider != Provider::kFirestore) {
    tenant_prefix_impl::refuse(provider, "tenant stream key");
  }
  return tenant_prefix_impl::range(provider, "tenant stream key prefix", {}, tenant);
}

TenantKeyRange saga_tenant_range(Provider provider, std::string_view tenant) {
  if (provider == Provider::kDynamoDb) {
    return tenant_prefix_impl::range(provider, "tenant saga key prefix",
                                     tenant_prefix_impl::kDynamoSagaPrefix, tenant);
  }
  if (provider == Provider::kFirestore) {
    return tenant_prefix_impl::range(provider, "tenant saga key prefix", {}, tenant);
  }
  tenant_prefix_impl::refuse(provider, "tenant saga key");
}

}  // namespace docket::keys
