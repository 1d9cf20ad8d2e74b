// The Redis provider's key terms (src/keys/redis_key.h): each shape carries the tenant,
// escapes only '%' and ':' in each term, refuses empty and malformed terms, and the
// checkpoint field parses back exactly (only canonical fields).
#include "keys/redis_key.h"

#include <gtest/gtest.h>

#include <string>

#include "docket/core/error.h"

namespace docket::keys {
namespace {

TEST(RedisKey, CheckpointFieldKeepsItsShapeAndParsesBackExactly) {
  const Key field = compose_redis_checkpoint_field({"acme", "orders"});
  EXPECT_EQ(field.value, "acme:orders");
  const Key awkward = compose_redis_checkpoint_field({"a:b", "c/d:e%"});
  EXPECT_EQ(awkward.value, "a%3Ab:c/d%3Ae%25");
  EXPECT_EQ(parse_redis_checkpoint_field(awkward.value), (CheckpointTerms{"a:b", "c/d:e%"}));
  EXPECT_EQ(compose_redis_checkpoint_tenant_prefix("a:b").value, "a%3Ab:");
}

TEST(RedisKey, CheckpointFieldParseAcceptsOnlyCanonicalFields) {
  EXPECT_EQ(parse_redis_checkpoint_field("a:b:c"), std::nullopt);
  EXPECT_EQ(parse_redis_checkpoint_field("a:%3a"), std::nullopt);  // lower-case escape
  EXPECT_EQ(parse_redis_checkpoint_field("a:%2F"), std::nullopt);  // '/' is not escaped
  EXPECT_EQ(parse_redis_checkpoint_field(":b"), std::nullopt);
  EXPECT_EQ(parse_redis_checkpoint_field("ab"), std::nullopt);
}

TEST(RedisKey, EveryShapeCarriesTheTenantEscaped) {
  EXPECT_EQ(compose_redis_ordering_key("a:b", "k%1").value, "t:a%3Ab:k%251");
  EXPECT_EQ(compose_redis_tenant_key("__untenanted__").value, "t:__untenanted__");
  EXPECT_EQ(compose_redis_stream_key({"acme", "Account", "A:1"}).value, "t:acme:Account:A%3A1");
  EXPECT_EQ(compose_redis_saga_key({"acme", "Order", "o-1"}).value, "t:acme:Order:o-1");
  // Two tenants never share a key for one aggregate or saga id.
  EXPECT_NE(compose_redis_stream_key({"a", "T", "1"}).value,
            compose_redis_stream_key({"b", "T", "1"}).value);
  // An escaped ':' keeps terms apart: (a:b, c) and (a, b:c) differ.
  EXPECT_NE(compose_redis_saga_key({"t", "a:b", "c"}).value,
            compose_redis_saga_key({"t", "a", "b:c"}).value);
}

TEST(RedisKey, RefusesEmptyAndMalformedTerms) {
  EXPECT_THROW(compose_redis_checkpoint_field({"", "c"}), InvalidKeyTermError);
  EXPECT_THROW(compose_redis_checkpoint_tenant_prefix(""), InvalidKeyTermError);
  EXPECT_THROW(compose_redis_ordering_key("t", ""), InvalidKeyTermError);
  EXPECT_THROW(compose_redis_tenant_key("\xC3"), InvalidKeyTermError);
  EXPECT_THROW(compose_redis_stream_key({"t", "", "1"}), InvalidKeyTermError);
  EXPECT_THROW(compose_redis_saga_key({"t", "Order", "\xFF"}), InvalidKeyTermError);
}

}  // namespace
}  // namespace docket::keys
