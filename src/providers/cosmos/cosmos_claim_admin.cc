// The claim inbox's administration (cosmos_claim_inbox_store.h), as SQL queries over the
// container, across partitions:
//   failed_due   status = failed, nextAttemptAt <= now, retryCount < max, by nextAttemptAt
//   counts       COUNT(1) per status and of failed entries due, MIN(receivedAt) of those
//                not processed (of the tenant, when given)
//   entries      status and tenant as asked, in id order after the previous page's last id
//   cleanup      status = processed and processedAt < cutoff (and the tenant), a page of
//                `limit` deleted item by item under If-Match
#include <algorithm>
#include <optional>
#include <string>

#include "docket/core/error.h"
#include "providers/cosmos/cosmos_claim_inbox_store.h"
#include "providers/cosmos/cosmos_claim_item.h"
#include "providers/kit/time_codec.h"

namespace docket::cosmos::detail {
namespace {

// " AND c.tenant = @tenant" with its parameter, when a tenant narrows the query.
std::string tenant_clause(const TenantId* tenant, nlohmann::json& parameters) {
  if (tenant == nullptr) {
    return "";
  }
  parameters.push_back({{"name", "@tenant"}, {"value", tenant->value()}});
  return " AND c.tenant = @tenant";
}

nlohmann::json parameter(std::string_view name, nlohmann::json value) {
  return {{"name", name}, {"value", std::move(value)}};
}

}  // namespace

std::vector<ClaimEntry> CosmosClaimInboxStore::entries_of(
    const std::vector<nlohmann::json>& items) const {
  std::vector<ClaimEntry> entries;
  entries.reserve(items.size());
  for (const nlohmann::json& item : items) {
    entries.push_back(claim::claim_entry_of(item, store_));
  }
  return entries;
}

std::vector<ClaimEntry> CosmosClaimInboxStore::do_failed_due(std::uint32_t max_retries,
                                                             std::size_t limit) {
  migrate();
  const Query due{.container = container_,
                  .sql =
                      "SELECT * FROM c WHERE c.status = 'failed' AND c.nextAttemptAt <= @now AND "
                      "c.retryCount < @max ORDER BY c.nextAttemptAt",
                  .parameters = {parameter("@now", kit::to_micros(clock_.now())),
                                 parameter("@max", max_retries)},
                  .order = OrderBy{.path = "nextAttemptAt"}};
  return entries_of(query_items(client_, due, limit));
}

ClaimCounts CosmosClaimInboxStore::do_counts(const std::optional<TenantId>& tenant) {
  migrate();
  const TenantId* of = tenant ? &*tenant : nullptr;
  const auto count_where = [&](const std::string& condition, nlohmann::json parameters) {
    const std::string narrowed = tenant_clause(of, parameters);
    return query_count(client_,
                       {.container = container_,
                        .sql = "SELECT VALUE COUNT(1) FROM c WHERE " + condition + narrowed,
                        .parameters = std::move(parameters)});
  };
  const auto status_count = [&](ClaimStatus status) {
    return count_where("c.status = @status",
                       nlohmann::json::array({parameter("@status", to_string(status))}));
  };
  ClaimCounts counts{.received = status_count(ClaimStatus::kReceived),
                     .processing = status_count(ClaimStatus::kProcessing),
                     .processed = status_count(ClaimStatus::kProcessed),
                     .failed = status_count(ClaimStatus::kFailed)};
  counts.failed_due =
      count_where("c.status = 'failed' AND c.nextAttemptAt <= @now",
                  nlohmann::json::array({parameter("@now", kit::to_micros(clock_.now()))}));
  nlohmann::json parameters = nlohmann::json::array();
  const std::string narrowed = tenant_clause(of, parameters);
  const std::vector<nlohmann::json> oldest = query_every_range(
      client_,
      {.container = container_,
       .sql = "SELECT VALUE MIN(c.receivedAt) FROM c WHERE c.status != 'processed'" + narrowed,
       .parameters = std::move(parameters)},
      kMaxClaimPageSize);
  // One value per partition key range at most: the least of them.
  for (const nlohmann::json& value : oldest) {
    if (value.is_number()) {
      const Timestamp at = kit::from_micros(value.get<std::int64_t>());
      counts.oldest_pending = counts.oldest_pending ? std::min(*counts.oldest_pending, at) : at;
    }
  }
  return counts;
}

ClaimPage CosmosClaimInboxStore::do_entries(const ClaimPageRequest& request) {
  migrate();
  nlohmann::json parameters = nlohmann::json::array();
  std::string sql = "SELECT * FROM c WHERE IS_DEFINED(c.status)";
  if (request.tenant) {
    sql += tenant_clause(&*request.tenant, parameters);
  }
  if (request.status) {
    sql += " AND c.status = @status";
    parameters.push_back(parameter("@status", to_string(*request.status)));
  }
  if (request.after) {
    sql += " AND c.id > @after";
    parameters.push_back(parameter("@after", entry_id(*request.after)));
  }
  sql += " ORDER BY c.id";
  std::vector<ClaimEntry> entries = entries_of(query_items(client_,
                                                           {.container = container_,
                                                            .sql = std::move(sql),
                                                            .parameters = std::move(parameters),
                                                            .order = OrderBy{.path = "id"}},
                                                           request.limit + 1));
  ClaimPage page;
  if (entries.size() > request.limit) {
    entries.erase(entries.begin() + static_cast<std::ptrdiff_t>(request.limit), entries.end());
    page.next = entries.back().key;
  }
  page.entries = std::move(entries);
  return page;
}

std::size_t CosmosClaimInboxStore::do_cleanup_batch(const TenantId* tenant, Timestamp cutoff,
                                                    std::size_t limit) {
  migrate();
  nlohmann::json parameters = nlohmann::json::array({parameter("@cutoff", kit::to_micros(cutoff))});
  const std::string narrowed = tenant_clause(tenant, parameters);
  const std::vector<nlohmann::json> found = query_items(
      client_,
      {.container = container_,
       .sql = "SELECT * FROM c WHERE c.status = 'processed' AND c.processedAt < @cutoff" + narrowed,
       .parameters = std::move(parameters)},
      limit);
  std::size_t deleted = 0;
  for (const nlohmann::json& item : found) {
    if (!item.contains("id") || !item["id"].is_string() || !item.contains("_etag") ||
        !item["_etag"].is_string()) {
      throw InfrastructureError(store_ + ": a query answered an item without its id or etag");
    }
    const std::string& id = item["id"].get_ref<const std::string&>();
    if (delete_item(client_, address(id), item["_etag"].get_ref<const std::string&>())) {
      ++deleted;
    }
  }
  return deleted;
}

std::uint64_t CosmosClaimInboxStore::do_count_cleanable(const std::optional<TenantId>& tenant,
                                                        Timestamp cutoff) {
  migrate();
  nlohmann::json parameters = nlohmann::json::array({parameter("@cutoff", kit::to_micros(cutoff))});
  const std::string narrowed = tenant_clause(tenant ? &*tenant : nullptr, parameters);
  return query_count(client_, {.container = container_,
                               .sql = "SELECT VALUE COUNT(1) FROM c WHERE c.status = 'processed' "
                                      "AND c.processedAt < @cutoff" +
                                      narrowed,
                               .parameters = std::move(parameters)});
}

}  // namespace docket::cosmos::detail
