// Cleanup of processed entries (dynamodb_claim_inbox_store.h): the candidates come from
// the sparse indexes that hold processed entries only, by processed_at, so that no
// pending entry is ever read:
//   one tenant    one Query of tenant_processed: tenant = T AND processed_at < cutoff
//   every tenant  one Query per shard of shard_processed: shard = S AND processed_at < cutoff
// and each candidate is deleted by a DeleteItem conditional on status = processed AND
// processed_at < cutoff, checked on the item itself: an index read is eventually
// consistent, and the condition keeps an entry whose state is not what the index showed.
// A batch is at most `limit` candidates; an entry already gone (another cleanup took
// it) is not counted, which ends the batches early rather than loop on a stale index.
#include <algorithm>
#include <string>
#include <utility>

#include "providers/dynamodb/dynamodb_attribute.h"
#include "providers/dynamodb/dynamodb_claim_inbox_store.h"
#include "providers/dynamodb/dynamodb_claim_requests.h"
#include "providers/dynamodb/dynamodb_claim_table.h"
#include "providers/dynamodb/dynamodb_expression.h"
#include "providers/dynamodb/dynamodb_pager.h"
#include "providers/kit/time_codec.h"

namespace docket::dynamodb::detail {
namespace {

constexpr std::string_view kTenantProcessedBefore = "#tenant = :tenant AND #processed_at < :cutoff";
constexpr std::string_view kShardProcessedBefore = "#shard = :shard AND #processed_at < :cutoff";
constexpr std::string_view kIdOnly = "#id";
constexpr std::size_t kCleanupPageItems = 1000;

nlohmann::json processed_query(const std::string& table, std::string_view index,
                               std::string_view condition, nlohmann::json values) {
  return {{"TableName", table},
          {"IndexName", index},
          {"KeyConditionExpression", condition},
          {"ProjectionExpression", kIdOnly},
          {"ExpressionAttributeNames", attribute_names({condition, kIdOnly})},
          {"ExpressionAttributeValues", std::move(values)}};
}

}  // namespace

std::vector<nlohmann::json> DynamoDbClaimInboxStore::processed_queries(const TenantId* tenant,
                                                                       Timestamp cutoff) const {
  const nlohmann::json before = number_value(kit::to_micros(cutoff));
  if (tenant != nullptr) {
    return {processed_query(table_.name(), claim::kTenantProcessedIndex, kTenantProcessedBefore,
                            {{":tenant", string_value(tenant->value())}, {":cutoff", before}})};
  }
  std::vector<nlohmann::json> queries;
  for (std::int64_t shard = 0; shard < claim::kShards; ++shard) {
    queries.push_back(processed_query(table_.name(), claim::kShardProcessedIndex,
                                      kShardProcessedBefore,
                                      {{":shard", number_value(shard)}, {":cutoff", before}}));
  }
  return queries;
}

std::size_t DynamoDbClaimInboxStore::do_cleanup_batch(const TenantId* tenant, Timestamp cutoff,
                                                      std::size_t limit) {
  const Client& client = ready();
  std::vector<std::string> candidates;
  for (nlohmann::json& query : processed_queries(tenant, cutoff)) {
    query["Limit"] = std::min(limit - candidates.size(), kCleanupPageItems);
    Pager pager = Pager::query(client, std::move(query));
    while (candidates.size() < limit) {
      const std::optional<nlohmann::json> page = pager.next_page();
      if (!page) {
        break;
      }
      for (const nlohmann::json& item : *page) {
        if (candidates.size() == limit) {
          break;
        }
        candidates.emplace_back(ItemReader(item, store_).string(claim::kId));
      }
    }
    if (candidates.size() == limit) {
      break;
    }
  }
  std::size_t deleted = 0;
  for (const std::string& id : candidates) {
    deleted += conditional_write("DeleteItem", claim::delete_processed_request(
                                                   {.table = table_.name(), .id = id}, cutoff))
                   ? 1
                   : 0;
  }
  return deleted;
}

std::uint64_t DynamoDbClaimInboxStore::do_count_cleanable(const std::optional<TenantId>& tenant,
                                                          Timestamp cutoff) {
  const Client& client = ready();
  std::uint64_t count = 0;
  for (nlohmann::json& query : processed_queries(tenant ? &*tenant : nullptr, cutoff)) {
    Pager pager = Pager::query(client, std::move(query));
    while (const std::optional<nlohmann::json> page = pager.next_page()) {
      count += page->size();
    }
  }
  return count;
}

}  // namespace docket::dynamodb::detail
