// The DynamoDB provider's key terms (src/keys/dynamodb_key.h).
#include "keys/dynamodb_key.h"

#include <gtest/gtest.h>

#include <string>

#include "docket/core/error.h"

namespace docket::keys {
namespace {

TEST(DynamoDbKey, OutboxKeyItemCarriesTheTenantAndEscapesEachTerm) {
  EXPECT_EQ(compose_dynamodb_outbox_key_item("acme", "order-7").value,
            "docket:outbox:key:t:acme:order-7");
  // ':' inside a term is escaped, so the pair stays unambiguous: ("a:b", "c") and
  // ("a", "b:c") are two items.
  EXPECT_EQ(compose_dynamodb_outbox_key_item("a:b", "c").value, "docket:outbox:key:t:a%3Ab:c");
  EXPECT_EQ(compose_dynamodb_outbox_key_item("a", "b:c").value, "docket:outbox:key:t:a:b%3Ac");
  EXPECT_EQ(compose_dynamodb_outbox_key_item("a", "100%").value, "docket:outbox:key:t:a:100%25");
}

TEST(DynamoDbKey, OutboxKeyItemRefusesBadTermsAndOverlongIds) {
  EXPECT_THROW(compose_dynamodb_outbox_key_item("", "k"), InvalidKeyTermError);
  EXPECT_THROW(compose_dynamodb_outbox_key_item("t", "\xC3"), InvalidKeyTermError);
  const std::string prefix = "docket:outbox:key:t:t:";
  EXPECT_EQ(
      compose_dynamodb_outbox_key_item("t", std::string(2048 - prefix.size(), 'k')).value.size(),
      2048U);
  EXPECT_THROW(compose_dynamodb_outbox_key_item("t", std::string(2049 - prefix.size(), 'k')),
               KeyTooLongError);
}

}  // namespace
}  // namespace docket::keys
