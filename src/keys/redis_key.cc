// The Redis provider's key terms (redis_key.h).
#include "keys/redis_key.h"

#include <utility>

#include "keys/key_builder.h"
#include "keys/limits.h"

namespace docket::keys {
namespace {

using detail::KeyBuilder;

// The one definition of the checkpoint field: {tenant}:{consumerId}.
void build_checkpoint_field(KeyBuilder& key, const CheckpointTerms& terms) {
  key.term("tenant", terms.tenant);
  key.constant(detail::kSeparatorText);
  key.term("consumer id", terms.consumer_id);
}

}  // namespace

Key compose_redis_checkpoint_field(const CheckpointTerms& terms) {
  KeyBuilder key(Provider::kRedis, "checkpoint field", detail::kRedisKey, KeyBuilder::Mode::kThrow);
  build_checkpoint_field(key, terms);
  return std::move(key).finish();
}

std::optional<CheckpointTerms> parse_redis_checkpoint_field(std::string_view field) {
  const auto parts = detail::split_exact<2>(field, detail::kSeparator);
  if (!parts) {
    return std::nullopt;
  }
  const auto decoded = detail::decode_all(*parts);
  if (!decoded) {
    return std::nullopt;
  }
  CheckpointTerms terms{(*decoded)[0], (*decoded)[1]};
  // Only the canonical spelling parses: re-compose and compare byte for byte.
  KeyBuilder again(Provider::kRedis, "checkpoint field", detail::kRedisKey, KeyBuilder::Mode::kTry);
  build_checkpoint_field(again, terms);
  const std::optional<std::string> recomposed = std::move(again).try_finish();
  if (!recomposed || *recomposed != field) {
    return std::nullopt;
  }
  return terms;
}

Key compose_redis_checkpoint_tenant_prefix(std::string_view tenant) {
  KeyBuilder key(Provider::kRedis, "checkpoint field", detail::kRedisKey, KeyBuilder::Mode::kThrow);
  key.term("tenant", tenant);
  key.constant(detail::kSeparatorText);
  return std::move(key).finish();
}

Key compose_redis_ordering_key(std::string_view tenant, std::string_view ordering_key) {
  KeyBuilder key(Provider::kRedis, "outbox ordering key", detail::kRedisKey,
                 KeyBuilder::Mode::kThrow);
  key.constant(detail::kTenantMarker);
  key.term("tenant", tenant);
  key.constant(detail::kSeparatorText);
  key.term("ordering key", ordering_key);
  return std::move(key).finish();
}

Key compose_redis_tenant_key(std::string_view tenant) {
  KeyBuilder key(Provider::kRedis, "tenant key", detail::kRedisKey, KeyBuilder::Mode::kThrow);
  key.constant(detail::kTenantMarker);
  key.term("tenant", tenant);
  return std::move(key).finish();
}

Key compose_redis_stream_key(const StreamTerms& terms) {
  KeyBuilder key(Provider::kRedis, "stream key", detail::kRedisKey, KeyBuilder::Mode::kThrow);
  key.constant(detail::kTenantMarker);
  key.term("tenant", terms.tenant);
  key.constant(detail::kSeparatorText);
  key.term("aggregate type", terms.aggregate_type);
  key.constant(detail::kSeparatorText);
  key.term("aggregate id", terms.aggregate_id);
  return std::move(key).finish();
}

Key compose_redis_saga_key(const SagaTerms& terms) {
  KeyBuilder key(Provider::kRedis, "saga key", detail::kRedisKey, KeyBuilder::Mode::kThrow);
  key.constant(detail::kTenantMarker);
  key.term("tenant", terms.tenant);
  key.constant(detail::kSeparatorText);
  key.term("saga type", terms.saga_type);
  key.constant(detail::kSeparatorText);
  key.term("saga id", terms.saga_id);
  return std::move(key).finish();
}

}  // namespace docket::keys
