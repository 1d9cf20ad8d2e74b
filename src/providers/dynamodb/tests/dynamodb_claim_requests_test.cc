// The claim inbox's requests and items without a server: every expression's
// placeholders defined exactly (DynamoDB refuses a request with a name or value it does
// not use, or one it lacks), the conditions each state change carries, the shard
// function pinned to FNV-1a's published values, and items docket did not write refused
// by name.
#include "providers/dynamodb/dynamodb_claim_requests.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cctype>
#include <set>
#include <string>

#include "docket/core/error.h"
#include "providers/dynamodb/dynamodb_attribute.h"
#include "providers/dynamodb/dynamodb_claim_item.h"
#include "providers/dynamodb/dynamodb_claim_table.h"
#include "providers/dynamodb/dynamodb_expression.h"

namespace docket::dynamodb::detail::claim {
namespace {

using ::testing::HasSubstr;

namespace dynamodb_claim_requests_test {

const ClaimKey kKey(TenantId("acme"), "m-1", "billing.Invoice");
const EntryAddress kEntry{.table = "app_docket_claim_inbox", .id = "acme:m-1:billing.Invoice"};
const Timestamp kNow(std::chrono::seconds(1'800'000'000));
const ClaimToken kToken{.owner = "w", .claim_id = "c-1"};

// Every `marker`-placeholder (#name or :value) in the request's expressions.
std::set<std::string> placeholders(const nlohmann::json& request, char marker) {
  std::set<std::string> found;
  for (const char* field : {"UpdateExpression", "ConditionExpression", "KeyConditionExpression",
                            "FilterExpression", "ProjectionExpression"}) {
    if (!request.contains(field)) {
      continue;
    }
    const std::string text = request[field];
    for (std::size_t at = text.find(marker); at != std::string::npos;
         at = text.find(marker, at + 1)) {
      std::size_t end = at + 1;
      while (end < text.size() &&
             (std::isalnum(static_cast<unsigned char>(text[end])) != 0 || text[end] == '_')) {
        ++end;
      }
      found.insert(text.substr(at, end - at));
    }
  }
  return found;
}

std::set<std::string> keys_of(const nlohmann::json& object) {
  std::set<std::string> keys;
  for (const auto& [key, value] : object.items()) {
    keys.insert(key);
  }
  return keys;
}

void expect_placeholders_defined(const nlohmann::json& request) {
  EXPECT_EQ(placeholders(request, '#'), keys_of(request["ExpressionAttributeNames"]))
      << request.dump();
  EXPECT_EQ(placeholders(request, ':'), keys_of(request["ExpressionAttributeValues"]))
      << request.dump();
  for (const auto& [placeholder, name] : request["ExpressionAttributeNames"].items()) {
    EXPECT_EQ("#" + name.get<std::string>(), placeholder);
  }
}

// An item as the store writes it for a processing entry.
nlohmann::json processing_item() {
  return {{"id", string_value(kEntry.id)},        {"tenant", string_value("acme")},
          {"message_id", string_value("m-1")},    {"handler_type", string_value("billing.Invoice")},
          {"status", string_value("processing")}, {"retry_count", number_value(2)},
          {"received_at", number_value(10)},      {"updated_at", number_value(20)},
          {"owner", string_value("w")},           {"claim_id", string_value("c-1")},
          {"lease_until", number_value(-30)},     {"shard", number_value(3)}};
}

}  // namespace dynamodb_claim_requests_test

using namespace dynamodb_claim_requests_test;  // NOLINT: this file's helpers

TEST(DynamoDbClaimRequests, EveryExpressionPlaceholderIsDefinedExactly) {
  const ClaimFailure failure{.error = "", .next_attempt_at = kNow};
  for (const nlohmann::json& request :
       {try_claim_request(kEntry, kKey, kToken, kNow, kNow + std::chrono::seconds(30)),
        mark_processed_request(kEntry, kToken, kNow), release_request(kEntry, kToken, kNow),
        mark_failed_request(kEntry, kToken, kNow, failure),
        renew_request(kEntry, kToken, kNow, kNow + std::chrono::seconds(30)),
        try_mark_processed_request(kEntry, kKey, kNow), delete_processed_request(kEntry, kNow)}) {
    expect_placeholders_defined(request);
    EXPECT_EQ(request["TableName"], "app_docket_claim_inbox");
    EXPECT_EQ(request["Key"], nlohmann::json({{"id", {{"S", kEntry.id}}}}));
  }
}

TEST(DynamoDbClaimRequests, EachStateChangeStatesTheStateItStartsFrom) {
  const nlohmann::json claim =
      try_claim_request(kEntry, kKey, kToken, kNow, kNow + std::chrono::seconds(30));
  EXPECT_THAT(claim["ConditionExpression"].get<std::string>(), HasSubstr("#lease_until <= :now"));
  EXPECT_EQ(claim["ExpressionAttributeValues"][":now"], number_value(1'800'000'000'000'000));
  EXPECT_EQ(claim["ExpressionAttributeValues"][":lease_until"],
            number_value(1'800'000'030'000'000));
  EXPECT_EQ(claim["ReturnValuesOnConditionCheckFailure"], "ALL_OLD");
  EXPECT_THAT(claim["UpdateExpression"].get<std::string>(),
              HasSubstr("#retry_count = if_not_exists(#retry_count, :zero)"));
  EXPECT_EQ(claim["ExpressionAttributeValues"][":shard"], number_value(shard_of(kEntry.id)));
  EXPECT_THAT(claim["UpdateExpression"].get<std::string>(), HasSubstr("#claim_id = :claim_id"));
  EXPECT_EQ(claim["ExpressionAttributeValues"][":claim_id"], string_value("c-1"));
  // Every change of a held claim is fenced by the whole token; each end clears it.
  for (const nlohmann::json& held :
       {mark_processed_request(kEntry, kToken, kNow), release_request(kEntry, kToken, kNow),
        mark_failed_request(kEntry, kToken, kNow, {"boom", kNow}),
        renew_request(kEntry, kToken, kNow, kNow + std::chrono::seconds(30))}) {
    EXPECT_EQ(held["ConditionExpression"],
              "#status = :processing AND #owner = :owner AND #claim_id = :claim_id");
    EXPECT_EQ(held["ExpressionAttributeValues"][":owner"], string_value("w"));
    EXPECT_EQ(held["ExpressionAttributeValues"][":claim_id"], string_value("c-1"));
  }
  for (const nlohmann::json& end :
       {mark_processed_request(kEntry, kToken, kNow), release_request(kEntry, kToken, kNow),
        mark_failed_request(kEntry, kToken, kNow, {"boom", kNow}),
        try_mark_processed_request(kEntry, kKey, kNow)}) {
    EXPECT_THAT(end["UpdateExpression"].get<std::string>(), HasSubstr("REMOVE #owner, #claim_id"));
  }
  const nlohmann::json renew = renew_request(kEntry, kToken, kNow, kNow + std::chrono::seconds(45));
  EXPECT_EQ(renew["UpdateExpression"], "SET #lease_until = :lease_until, #updated_at = :now");
  EXPECT_EQ(renew["ExpressionAttributeValues"][":lease_until"],
            number_value(1'800'000'045'000'000));
  EXPECT_EQ(try_mark_processed_request(kEntry, kKey, kNow)["ConditionExpression"],
            "attribute_not_exists(#id) OR #status <> :processed");
  EXPECT_EQ(delete_processed_request(kEntry, kNow)["ConditionExpression"],
            "#status = :processed AND #processed_at < :cutoff");
}

TEST(DynamoDbClaimRequests, ANewEntryIsOnePutOfTheClaimedEntryOnlyWhereNoneExists) {
  const nlohmann::json put =
      create_claimed_request(kEntry, kKey, kToken, kNow, kNow + std::chrono::seconds(30));
  EXPECT_EQ(put["TableName"], "app_docket_claim_inbox");
  EXPECT_EQ(put["ConditionExpression"], "attribute_not_exists(#id)");
  EXPECT_EQ(put["ExpressionAttributeNames"], nlohmann::json({{"#id", "id"}}));
  // DynamoDB refuses an empty ExpressionAttributeValues map.
  EXPECT_FALSE(put.contains("ExpressionAttributeValues"));
  EXPECT_EQ(put["ReturnValuesOnConditionCheckFailure"], "ALL_OLD");
  EXPECT_EQ(put["Item"]["shard"], number_value(shard_of(kEntry.id)));

  const ClaimEntry entry = claim_entry_of(put["Item"], "test");
  EXPECT_EQ(entry.key.tenant().value(), "acme");
  EXPECT_EQ(entry.key.message_id(), "m-1");
  EXPECT_EQ(entry.key.handler_type(), "billing.Invoice");
  EXPECT_EQ(entry.status, ClaimStatus::kProcessing);
  EXPECT_EQ(entry.retry_count, 0u);
  EXPECT_EQ(entry.received_at, kNow);
  EXPECT_EQ(entry.updated_at, kNow);
  EXPECT_EQ(entry.owner, "w");
  EXPECT_EQ(entry.claim_id, "c-1");
  EXPECT_EQ(entry.lease_until, kNow + std::chrono::seconds(30));
  EXPECT_EQ(entry.processed_at, std::nullopt);
}

TEST(DynamoDbClaimRequests, AttributeNamesAreThePlaceholdersFound) {
  EXPECT_EQ(attribute_names({"#a = :x AND #b_2 < #a", "# alone", "REMOVE #c"}),
            nlohmann::json({{"#a", "a"}, {"#b_2", "b_2"}, {"#c", "c"}}));
  EXPECT_EQ(attribute_names({"no names"}), nlohmann::json::object());
}

// FNV-1a's published 32-bit values: "" is 0x811c9dc5, "a" 0xe40c292c, "foobar" 0xbf9cf968.
TEST(DynamoDbClaimTable, TheShardIsFnv1aModuloSixteen) {
  EXPECT_EQ(kShards, 16);
  EXPECT_EQ(shard_of(""), 0x811c9dc5 % 16);
  EXPECT_EQ(shard_of("a"), 0xe40c292c % 16);
  EXPECT_EQ(shard_of("foobar"), 0xbf9cf968 % 16);
}

TEST(DynamoDbClaimItem, AnItemReadsBackAsItsEntry) {
  const ClaimEntry entry = claim_entry_of(processing_item(), "test store");
  EXPECT_EQ(entry.key, kKey);
  EXPECT_EQ(entry.status, ClaimStatus::kProcessing);
  EXPECT_EQ(entry.retry_count, 2u);
  EXPECT_EQ(entry.owner, "w");
  EXPECT_EQ(entry.claim_id, "c-1");
  EXPECT_EQ(entry.lease_until, Timestamp(std::chrono::microseconds(-30)));
  EXPECT_EQ(entry.processed_at, std::nullopt);
}

// Written before claim ids existed: no claim_id attribute, read back as none.
TEST(DynamoDbClaimItem, AnItemWithoutAClaimIdReadsBackWithNone) {
  nlohmann::json item = processing_item();
  item.erase("claim_id");
  const ClaimEntry entry = claim_entry_of(item, "test store");
  EXPECT_EQ(entry.status, ClaimStatus::kProcessing);
  EXPECT_EQ(entry.owner, "w");
  EXPECT_EQ(entry.claim_id, std::nullopt);
}

TEST(DynamoDbClaimItem, AnItemDocketDidNotWriteIsRefusedByName) {
  const auto refusal = [](const nlohmann::json& item) -> std::string {
    try {
      claim_entry_of(item, "test store");
    } catch (const InfrastructureError& e) {
      return e.what();
    }
    return "accepted";
  };
  nlohmann::json item = processing_item();
  item.erase("tenant");
  EXPECT_THAT(refusal(item), HasSubstr("attribute 'tenant' is missing"));
  item = processing_item();
  item["retry_count"] = string_value("2");
  EXPECT_THAT(refusal(item), HasSubstr("attribute 'retry_count' is not of type N"));
  item["retry_count"] = nlohmann::json({{"N", "2.5"}});
  EXPECT_THAT(refusal(item), HasSubstr("not a 64-bit integer"));
  item = processing_item();
  item["status"] = string_value("Processing");
  EXPECT_THAT(refusal(item), HasSubstr("unknown status"));
  EXPECT_THAT(refusal(nlohmann::json::array()), HasSubstr("not an attribute map"));
}

}  // namespace
}  // namespace docket::dynamodb::detail::claim
