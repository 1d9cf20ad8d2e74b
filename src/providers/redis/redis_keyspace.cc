// docket's Redis keyspace (redis_keyspace.h).
#include "providers/redis/redis_keyspace.h"

#include "docket/keys/provider.h"
#include "docket/keys/term_codec.h"
#include "providers/kit/key_bridge.h"

namespace docket::redis::detail {

std::string dedup_id(const DedupKey& key) {
  return kit::inbox_dedup_id(keys::Provider::kRedis, key).value;
}

std::string dedup_key(const RedisUrl& url, std::string_view id) {
  std::string key = url.key(kDedupNamespace);
  key += id;
  return key;
}

std::string claim_entry_id(const ClaimKey& key) {
  return kit::inbox_entry_id(keys::Provider::kRedis, key).value;
}

std::string claim_entry_key(const RedisUrl& url, std::string_view id) {
  return url.key(id);
}

std::string checkpoint_field(std::string_view tenant, std::string_view consumer_id) {
  std::string field = keys::escape_reserved(tenant);
  field += ':';
  keys::append_escaped_reserved(consumer_id, {}, field);
  return field;
}

std::optional<CheckpointTermsView> parse_checkpoint_field(std::string_view field) {
  const auto colon = field.find(':');
  if (colon == std::string_view::npos || field.find(':', colon + 1) != std::string_view::npos) {
    return std::nullopt;
  }
  auto tenant = keys::percent_decode(field.substr(0, colon));
  auto consumer = keys::percent_decode(field.substr(colon + 1));
  if (!tenant || !consumer) {
    return std::nullopt;
  }
  return CheckpointTermsView{std::move(*tenant), std::move(*consumer)};
}

}  // namespace docket::redis::detail
