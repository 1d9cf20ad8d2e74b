// The claim inbox's administration (firestore_claim_inbox_store.h), as queries over the
// collection:
//   failed_due   status == failed and nextAttemptAt <= now, by nextAttemptAt then id,
//                page by page, the retry limit checked on each entry read
//   counts       every entry (of the tenant), page by page, counted one by one
//   entries      status and tenant as asked, in document id order from after the
//                previous page's last entry (a cursor on __name__)
//   cleanup      status == processed and processedAt < cutoff (and the tenant), a page
//                of `limit` deleted in commits of at most 500, each delete conditional
//                on the entry being unchanged since the query read it
#include <algorithm>
#include <string>
#include <utility>

#include "docket/keys/provider.h"
#include "providers/firestore/firestore_claim_document.h"
#include "providers/firestore/firestore_claim_inbox_store.h"
#include "providers/firestore/firestore_limits.h"
#include "providers/firestore/firestore_query.h"
#include "providers/firestore/firestore_value.h"
#include "providers/kit/claim_row.h"
#include "providers/kit/key_bridge.h"

namespace docket::firestore::detail {
namespace {

// Entries read per query page by the reads that go through a whole result.
constexpr std::size_t kClaimQueryPage = 300;

nlohmann::json equal_to(std::string_view field, nlohmann::json value) {
  return field_filter(field, "EQUAL", std::move(value));
}

nlohmann::json status_is(ClaimStatus status) {
  return equal_to(claim::kStatus, string_value(to_string(status)));
}

}  // namespace

std::vector<ClaimEntry> FirestoreClaimInboxStore::do_failed_due(std::uint32_t max_retries,
                                                                std::size_t limit) {
  const Timestamp now = clock_.now();
  Query due{.collection = collection_,
            .where = all_of(
                {status_is(ClaimStatus::kFailed),
                 field_filter(claim::kNextAttemptAt, "LESS_THAN_OR_EQUAL", timestamp_value(now))}),
            .order_by = {{std::string(claim::kNextAttemptAt), false}}};
  std::vector<ClaimEntry> found;
  query_pages(client_, std::move(due), std::min(std::max(limit, std::size_t{1}), kClaimQueryPage),
              [&](std::vector<Document>& page) {
                for (const Document& document : page) {
                  ClaimEntry entry = claim::claim_entry_of(document, store_);
                  if (entry.retry_count < max_retries) {
                    found.push_back(std::move(entry));
                    if (found.size() == limit) {
                      return false;
                    }
                  }
                }
                return true;
              });
  return found;
}

ClaimCounts FirestoreClaimInboxStore::do_counts(const std::optional<TenantId>& tenant) {
  const Timestamp now = clock_.now();
  Query all{.collection = collection_};
  if (tenant) {
    all.where = equal_to(claim::kTenant, string_value(tenant->value()));
  }
  ClaimCounts counts;
  query_pages(client_, std::move(all), kClaimQueryPage, [&](std::vector<Document>& page) {
    for (const Document& document : page) {
      const ClaimEntry entry = claim::claim_entry_of(document, store_);
      kit::count_claim_entry(counts, entry.status, entry.received_at,
                             entry.status == ClaimStatus::kFailed && entry.next_attempt_at &&
                                 *entry.next_attempt_at <= now);
    }
    return true;
  });
  return counts;
}

ClaimPage FirestoreClaimInboxStore::do_entries(const ClaimPageRequest& request) {
  std::vector<nlohmann::json> filters;
  if (request.tenant) {
    filters.push_back(equal_to(claim::kTenant, string_value(request.tenant->value())));
  }
  if (request.status) {
    filters.push_back(status_is(*request.status));
  }
  Query page_query{.collection = collection_,
                   .where = all_of(std::move(filters)),
                   .order_by = {{"__name__", false}},
                   .limit = request.limit + 1};
  if (request.after) {
    page_query.start_after =
        nlohmann::json::array({reference_value(client_, collection_, entry_id(*request.after))});
  }
  ClaimPage page;
  for (const Document& document : run_query(client_, page_query)) {
    if (page.entries.size() == request.limit) {
      page.next = page.entries.back().key;
      break;
    }
    page.entries.push_back(claim::claim_entry_of(document, store_));
  }
  return page;
}

Query FirestoreClaimInboxStore::processed_before(const TenantId* tenant, Timestamp cutoff) const {
  std::vector<nlohmann::json> filters = {
      status_is(ClaimStatus::kProcessed),
      field_filter(claim::kProcessedAt, "LESS_THAN", timestamp_value(cutoff))};
  if (tenant != nullptr) {
    filters.push_back(equal_to(claim::kTenant, string_value(tenant->value())));
  }
  return {.collection = collection_,
          .where = all_of(std::move(filters)),
          .order_by = {{std::string(claim::kProcessedAt), false}}};
}

std::size_t FirestoreClaimInboxStore::do_cleanup_batch(const TenantId* tenant, Timestamp cutoff,
                                                       std::size_t limit) {
  Query batch = processed_before(tenant, cutoff);
  batch.order_by.emplace_back("__name__", false);
  batch.limit = limit;
  const std::vector<Document> found = run_query(client_, batch);
  return delete_unchanged(client_, collection_, found, store_);
}

std::uint64_t FirestoreClaimInboxStore::do_count_cleanable(const std::optional<TenantId>& tenant,
                                                           Timestamp cutoff) {
  std::uint64_t count = 0;
  query_pages(client_, processed_before(tenant ? &*tenant : nullptr, cutoff), kClaimQueryPage,
              [&](std::vector<Document>& page) {
                count += page.size();
                return true;
              });
  return count;
}

}  // namespace docket::firestore::detail
