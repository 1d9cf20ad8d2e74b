// docket's Redis keyspace (redis_keyspace.h).
#include "providers/redis/redis_keyspace.h"

#include "docket/keys/provider.h"
#include "keys/redis_key.h"
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

std::string outbox_message_key(const RedisUrl& url, std::string_view id) {
  std::string key = url.key(kOutboxMessages);
  key += id;
  return key;
}

std::string outbox_order_key(const RedisUrl& url, std::string_view tenant,
                             std::string_view ordering_key) {
  std::string key = url.key(kOutboxOrder);
  key += keys::compose_redis_ordering_key(tenant, ordering_key).value;
  return key;
}

namespace {

keys::StreamTerms stream_terms(const StreamId& stream) {
  return {.tenant = stream.tenant().value(),
          .aggregate_type = std::string(stream.aggregate_type()),
          .aggregate_id = std::string(stream.aggregate_id())};
}

}  // namespace

std::string event_stream_key(const RedisUrl& url, const StreamId& stream) {
  return url.key(kEventStreams) + keys::compose_redis_stream_key(stream_terms(stream)).value;
}

std::string event_tenant_feed_key(const RedisUrl& url, std::string_view tenant) {
  return url.key(kEventTenantFeed) + keys::compose_redis_tenant_key(tenant).value;
}

std::string snapshot_key(const RedisUrl& url, const StreamId& stream) {
  return url.key(kSnapshots) + keys::compose_redis_stream_key(stream_terms(stream)).value;
}

std::string saga_member(const SagaId& saga) {
  return keys::compose_redis_saga_key({.tenant = saga.tenant().value(),
                                       .saga_type = saga.saga_type(),
                                       .saga_id = saga.saga_id()})
      .value;
}

std::string saga_key(const RedisUrl& url, std::string_view member) {
  std::string key = url.key(kSagas);
  key += member;
  return key;
}

std::string saga_tenant_prefix(std::string_view tenant) {
  return keys::compose_redis_tenant_key(tenant).value + ":";
}

std::string checkpoint_field(std::string_view tenant, std::string_view consumer_id) {
  return keys::compose_redis_checkpoint_field(
             {.tenant = std::string(tenant), .consumer_id = std::string(consumer_id)})
      .value;
}

std::string checkpoint_tenant_prefix(std::string_view tenant) {
  return keys::compose_redis_checkpoint_tenant_prefix(tenant).value;
}

std::optional<CheckpointTermsView> parse_checkpoint_field(std::string_view field) {
  return keys::parse_redis_checkpoint_field(field);
}

}  // namespace docket::redis::detail
