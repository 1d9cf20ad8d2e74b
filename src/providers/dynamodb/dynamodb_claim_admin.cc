// The claim inbox's administration reads (dynamodb_claim_inbox_store.h):
//   failed_due  one Query per shard of the sparse index shard_failed_due (failed entries
//               by due time), merged: only failed entries are read, earliest due first
//   counts      a Scan of the table, page by page, projecting the three attributes it
//               counts by: nothing narrower holds every status (an index on the status
//               would put every write of a busy inbox in a few index partitions)
//   entries     a Scan, page by page, from after the previous page's last entry: the
//               provider's key order is the Scan's order, DynamoDB's hash order of ids
// The table reads are strongly consistent; the index reads eventually consistent.
#include <algorithm>
#include <string>
#include <tuple>
#include <utility>

#include "providers/dynamodb/dynamodb_attribute.h"
#include "providers/dynamodb/dynamodb_claim_inbox_store.h"
#include "providers/dynamodb/dynamodb_claim_item.h"
#include "providers/dynamodb/dynamodb_claim_table.h"
#include "providers/dynamodb/dynamodb_expression.h"
#include "providers/dynamodb/dynamodb_pager.h"
#include "providers/kit/claim_row.h"
#include "providers/kit/time_codec.h"

namespace docket::dynamodb::detail {
namespace {

using kit::to_micros;

// Reads no more of one shard than a page of `limit` can use, ties on the due time
// included (they are ordered by key after the merge).
constexpr std::size_t kAdminPageItems = 1000;

constexpr std::string_view kDueInShard = "#shard = :shard AND #failed_due_at <= :now";
constexpr std::string_view kUnderRetryLimit = "#retry_count < :max_retries";
constexpr std::string_view kCountedAttributes = "#status, #received_at, #next_attempt_at";
constexpr std::string_view kOfTenant = "#tenant = :tenant";
constexpr std::string_view kOfStatus = "#status = :status";

nlohmann::json failed_due_query(const std::string& table, std::int64_t shard, Timestamp now,
                                std::uint32_t max_retries, std::size_t limit) {
  return {{"TableName", table},
          {"IndexName", claim::kShardFailedIndex},
          {"KeyConditionExpression", kDueInShard},
          {"FilterExpression", kUnderRetryLimit},
          {"ExpressionAttributeNames", attribute_names({kDueInShard, kUnderRetryLimit})},
          {"ExpressionAttributeValues",
           {{":shard", number_value(shard)},
            {":now", number_value(to_micros(now))},
            {":max_retries", number_value(max_retries)}}},
          {"Limit", std::min(limit + 1, kAdminPageItems)}};
}

// A Scan of `table` with `projection` (empty: whole items), filtered to `tenant` and
// `status` when given.
nlohmann::json scan(const std::string& table, std::string_view projection,
                    const std::optional<TenantId>& tenant, std::optional<ClaimStatus> status) {
  nlohmann::json request = {{"TableName", table}, {"ConsistentRead", true}};
  std::string filter;
  nlohmann::json values = nlohmann::json::object();
  if (tenant) {
    filter = kOfTenant;
    values[":tenant"] = string_value(tenant->value());
  }
  if (status) {
    filter += std::string(filter.empty() ? "" : " AND ") + std::string(kOfStatus);
    values[":status"] = string_value(to_string(*status));
  }
  if (!projection.empty()) {
    request["ProjectionExpression"] = projection;
  }
  if (!filter.empty()) {
    request["FilterExpression"] = filter;
    request["ExpressionAttributeValues"] = std::move(values);
  }
  if (!projection.empty() || !filter.empty()) {
    request["ExpressionAttributeNames"] = attribute_names({projection, filter});
  }
  return request;
}

bool earlier_due(const ClaimEntry& a, const ClaimEntry& b) {
  return std::tie(*a.next_attempt_at, a.key) < std::tie(*b.next_attempt_at, b.key);
}

}  // namespace

std::vector<ClaimEntry> DynamoDbClaimInboxStore::do_failed_due(std::uint32_t max_retries,
                                                               std::size_t limit) {
  const Client& client = ready();
  const Timestamp now = clock_.now();
  std::vector<ClaimEntry> due;
  for (std::int64_t shard = 0; shard < claim::kShards; ++shard) {
    Pager pager =
        Pager::query(client, failed_due_query(table_.name(), shard, now, max_retries, limit));
    std::size_t taken = 0;
    std::optional<Timestamp> last_due;
    bool shard_done = false;
    while (!shard_done) {
      const std::optional<nlohmann::json> page = pager.next_page();
      if (!page) {
        break;
      }
      for (const nlohmann::json& item : *page) {
        ClaimEntry entry = claim::claim_entry_of(item, store_);
        // The index gives due order: past `limit`, only ties of the last one count.
        if (taken >= limit && entry.next_attempt_at != last_due) {
          shard_done = true;
          break;
        }
        last_due = entry.next_attempt_at;
        due.push_back(std::move(entry));
        ++taken;
      }
    }
  }
  std::sort(due.begin(), due.end(), earlier_due);
  due.erase(due.begin() + static_cast<std::ptrdiff_t>(std::min(due.size(), limit)), due.end());
  return due;
}

ClaimCounts DynamoDbClaimInboxStore::do_counts(const std::optional<TenantId>& tenant) {
  const Client& client = ready();
  const Timestamp now = clock_.now();
  ClaimCounts counts;
  Pager pager = Pager::scan(client, scan(table_.name(), kCountedAttributes, tenant, {}));
  while (const std::optional<nlohmann::json> page = pager.next_page()) {
    for (const nlohmann::json& item : *page) {
      const ItemReader read(item, store_);
      const ClaimStatus status = kit::claim_status(read.string(claim::kStatus), store_);
      kit::count_claim_entry(
          counts, status, kit::from_micros(read.number(claim::kReceivedAt)),
          status == ClaimStatus::kFailed && read.number(claim::kNextAttemptAt) <= to_micros(now));
    }
  }
  return counts;
}

// Reads one entry more than the page holds: it tells whether another page follows.
ClaimPage DynamoDbClaimInboxStore::do_entries(const ClaimPageRequest& request) {
  nlohmann::json scan_request = scan(table_.name(), {}, request.tenant, request.status);
  scan_request["Limit"] = request.limit + 1;
  std::optional<keys::Key> after;
  if (request.after) {
    after = entry_id(*request.after);
  }
  Pager pager = Pager::scan(ready(), std::move(scan_request));
  if (after) {
    pager.start_after({{std::string(claim::kId), string_value(after->value)}});
  }
  ClaimPage page;
  while (page.entries.size() <= request.limit) {
    const std::optional<nlohmann::json> items = pager.next_page();
    if (!items) {
      break;
    }
    for (const nlohmann::json& item : *items) {
      page.entries.push_back(claim::claim_entry_of(item, store_));
      if (page.entries.size() > request.limit) {
        break;
      }
    }
  }
  if (page.entries.size() > request.limit) {
    page.entries.pop_back();
    page.next = page.entries.back().key;
  }
  return page;
}

}  // namespace docket::dynamodb::detail
