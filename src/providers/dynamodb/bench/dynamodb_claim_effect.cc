#include "dynamodb_claim_effect.h"

#include <set>

#include "docket/core/uuid.h"
#include "providers/dynamodb/dynamodb_attribute.h"
#include "providers/dynamodb/dynamodb_expression.h"
#include "providers/dynamodb/dynamodb_pager.h"
#include "providers/dynamodb/dynamodb_table_ensurer.h"

namespace docket::bench {
namespace {

constexpr std::string_view kClaimEffectChecks = "DynamoDB claim bench effect check";
constexpr std::string_view kOfClaimEffectRun = "#run_id = :run_id";
constexpr std::string_view kClaimEffectMessageOnly = "#message_id";

// Requests the bench's effects make are counted by the bench, not the provider
// (claim_effect.h); nor are the checks' and set-up's.
kit::http::JsonServiceOptions uncounted_client() {
  return {.http = {.request_count = nullptr}};
}

}  // namespace

dynamodb::detail::TableSchema dynamodb_claim_effects_table_schema(const std::string& url) {
  return {.name = dynamodb::detail::parse_store_url(url).table_name(kClaimEffectsTable),
          .partition_key = {"id", dynamodb::detail::KeyType::kString},
          .sort_key = std::nullopt,
          .global_indexes = {}};
}

void ensure_dynamodb_claim_effects_table(const std::string& url) {
  dynamodb::detail::ensure_table(
      dynamodb::detail::Client(dynamodb::detail::parse_store_url(url), uncounted_client()),
      dynamodb_claim_effects_table_schema(url));
}

void count_dynamodb_claim_effects(const std::string& url, std::string_view run_id,
                                  ClaimRows& rows) {
  const dynamodb::detail::Client client(dynamodb::detail::parse_store_url(url), uncounted_client());
  dynamodb::detail::Pager pager = dynamodb::detail::Pager::scan(
      client,
      {{"TableName", dynamodb_claim_effects_table_schema(url).name},
       {"ConsistentRead", true},
       {"FilterExpression", kOfClaimEffectRun},
       {"ProjectionExpression", kClaimEffectMessageOnly},
       {"ExpressionAttributeNames",
        dynamodb::detail::attribute_names({kOfClaimEffectRun, kClaimEffectMessageOnly})},
       {"ExpressionAttributeValues", {{":run_id", dynamodb::detail::string_value(run_id)}}}});
  std::set<std::string> messages;
  while (const auto page = pager.next_page()) {
    for (const nlohmann::json& item : *page) {
      ++rows.effects;
      messages.emplace(dynamodb::detail::ItemReader(item, kClaimEffectChecks).string("message_id"));
    }
  }
  rows.effect_messages = static_cast<std::int64_t>(messages.size());
}

ClaimEffectDynamoDb::ClaimEffectDynamoDb(const std::string& url, std::string_view run_id)
    : client_(dynamodb::detail::parse_store_url(url), uncounted_client()),
      table_(dynamodb_claim_effects_table_schema(url).name),
      run_id_(run_id) {}

void ClaimEffectDynamoDb::write(std::string_view message_id) {
  const nlohmann::json item = {{"id", dynamodb::detail::string_value(Uuid::v7().to_string())},
                               {"run_id", dynamodb::detail::string_value(run_id_)},
                               {"message_id", dynamodb::detail::string_value(message_id)},
                               {"body", dynamodb::detail::string_value(kClaimEffectBody)}};
  // A resend puts the same item again: safe to replay.
  client_.call({.operation = "PutItem", .table = table_, .replay = dynamodb::detail::Replay::kSafe},
               {{"TableName", table_}, {"Item", item}});
}

}  // namespace docket::bench
