// Structured queries over one collection, as docket's stores run them: filters, order,
// cursors, and paging through a whole result (query_pages()). Queries are reads, sent as
// Replay::kSafe.
//
// Thread-safety: pure functions over a Client, which may be shared between threads.
#ifndef DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_QUERY_H_
#define DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_QUERY_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "providers/firestore/firestore_client.h"
#include "providers/firestore/firestore_documents.h"

namespace docket::firestore::detail {

// A structured query over one collection.
struct Query {
  std::string collection{};
  nlohmann::json where{};  // a Filter (field_filter(), all_of()), or null for none
  // (field path, descending), in order; query_pages() adds __name__ last when absent.
  std::vector<std::pair<std::string, bool>> order_by{};
  std::size_t limit = 0;  // 0: no limit
  // Cursor: start after the position of these values (one per order_by field).
  std::optional<nlohmann::json> start_after{};
};

// {"fieldFilter": {...}}. `op`: "EQUAL", "LESS_THAN", "LESS_THAN_OR_EQUAL", ...
nlohmann::json field_filter(std::string_view field, std::string_view op, nlohmann::json value);
// The conjunction of `filters` (one filter alone as itself; none: null).
nlohmann::json all_of(std::vector<nlohmann::json> filters);

std::vector<Document> run_query(const Client& client, const Query& query,
                                std::optional<std::string_view> transaction = std::nullopt);

// Runs `query` page by page (`page_size` each, ordered by query.order_by then
// __name__), calling on_page with each non-empty page until it returns false or the
// results end.
void query_pages(const Client& client, Query query, std::size_t page_size,
                 const std::function<bool(std::vector<Document>&)>& on_page);

// Deletes every document of `collection`, a query page of at most kMaxWritesPerCommit
// at a time, each page one commit; returns how many. For set-up and tear-down (tests,
// benchmarks): documents written meanwhile may survive it.
std::uint64_t delete_collection(const Client& client, std::string_view collection);

// The cursor values that position a query ordered by `order_by` (then __name__) at
// `document`.
nlohmann::json cursor_of(const Document& document,
                         const std::vector<std::pair<std::string, bool>>& order_by);

// A Value referring to document `id` of `collection` (for cursors on __name__).
nlohmann::json reference_value(const Client& client, std::string_view collection,
                               std::string_view id);

}  // namespace docket::firestore::detail

#endif  // DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_QUERY_H_
