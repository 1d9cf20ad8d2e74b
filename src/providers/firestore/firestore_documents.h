// The Firestore document operations docket's stores are made of, over Client:
// commits of writes with preconditions, transactions (begin, commit, rollback), batch
// gets and structured queries with filters, order and cursors (paging: query_pages()).
//
// Every write is checked against firestore_limits.h before anything is sent. Reads are
// sent as Replay::kSafe (the client may repeat them); a commit is kUnsafe: a commit
// whose first try may have been applied is never sent again, as its second try could
// report its own first as a conflict.
//
// Thread-safety: pure functions over a Client, which may be shared between threads.
#ifndef DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_DOCUMENTS_H_
#define DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_DOCUMENTS_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "providers/firestore/firestore_client.h"

namespace docket::firestore {

// A document as read back.
struct Document {
  std::string name{};         // the full resource name
  std::string id{};           // its last segment
  nlohmann::json fields{};    // field name -> Value (an object, empty when it has none)
  std::string update_time{};  // RFC 3339, exactly as Firestore wrote it (for preconditions)
};

// What must hold for a write to apply; nothing when both are empty.
struct Precondition {
  std::optional<bool> exists{};              // false: a create; true: must exist
  std::optional<std::string> update_time{};  // must be unchanged since this read
};

struct Write {
  std::string collection{};
  std::string id{};
  // The whole document to set, field name -> Value; nullopt deletes the document.
  std::optional<nlohmann::json> fields{};
  Precondition precondition{};
};

struct CommitResult {
  // False when a precondition did not hold (or, in a transaction, it was aborted):
  // nothing was written. `refusal` says which.
  bool applied = false;
  std::optional<ServiceError> refusal{};
  std::vector<std::string> update_times{};  // applied: each write's, in order
};

// Commits `writes` atomically (in `transaction` when given, which ends it). Throws
// InvalidInputError, naming the collection and document, for a write over a limit or
// more than kMaxWritesPerCommit writes (nothing sent); per firestore_failure.h for a
// failure that is not a precondition. `target` names what is written, for messages.
CommitResult commit(const Client& client, std::span<const Write> writes, std::string_view target,
                    std::optional<std::string_view> transaction = std::nullopt);

// A new read-write (or read-only) transaction's id.
std::string begin_transaction(const Client& client, bool read_only = false);
// Ends `transaction` without writing. Never throws for a transaction that is already
// over (Firestore forgets them): a rollback is a courtesy that frees its locks early.
void rollback(const Client& client, std::string_view transaction) noexcept;

// The documents of `collection` named `ids`, in order; nullopt for each missing one.
std::vector<std::optional<Document>> batch_get(
    const Client& client, std::string_view collection, std::span<const std::string> ids,
    std::optional<std::string_view> transaction = std::nullopt);
std::optional<Document> get_document(const Client& client, std::string_view collection,
                                     std::string_view id,
                                     std::optional<std::string_view> transaction = std::nullopt);

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

}  // namespace docket::firestore

#endif  // DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_DOCUMENTS_H_
