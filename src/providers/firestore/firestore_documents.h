// The Firestore document operations docket's stores are made of, over Client:
// commits of writes with preconditions, transactions (begin, commit, rollback) and batch
// gets. Queries are in firestore_query.h.
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
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "providers/firestore/firestore_client.h"

namespace docket::firestore::detail {

// A document as read back.
struct Document {
  std::string name{};         // the full resource name
  std::string id{};           // its last segment
  nlohmann::json fields{};    // field name -> Value (an object, empty when it has none)
  std::string update_time{};  // RFC 3339, exactly as Firestore wrote it (for preconditions)
};

// A document as the REST API answers it ({"name", "fields", "updateTime", ...}).
Document document_from_json(const nlohmann::json& json);

// "collection 'app_things'": what a call on `collection` acts on, for messages.
std::string collection_target(std::string_view collection);

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
  // With fields: write only these field paths (an update mask; fields names the new
  // values, a path absent from fields is deleted), keeping the document's others. An
  // empty mask writes nothing, which checks the precondition alone.
  std::optional<std::vector<std::string>> mask{};
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

// Applies each of `writes` (on distinct documents, at most kMaxWritesPerCommit) where
// its precondition holds, in ONE batchWrite request: not atomically, each write on its
// own. Returns, per write, its update time where it applied, nullopt where its document
// refused it (a precondition that did not hold, or contention on that document).
// Throws as commit() does for what is not a document's refusal; a write failing for
// another reason is thrown, naming it, though the others may have applied.
std::vector<std::optional<std::string>> write_each(const Client& client,
                                                   std::span<const Write> writes,
                                                   std::string_view target);

// Applies each of `writes` (on distinct documents) where its precondition holds: in
// commits of at most kMaxWritesPerCommit, and a commit refused for one write's
// precondition is retried one write at a time. Returns, per write, whether it applied.
std::vector<bool> commit_where_preconditions_hold(const Client& client,
                                                  std::span<const Write> writes,
                                                  std::string_view target);

// Deletes each of `documents` (of `collection`, as a query read them) unless it changed
// or went since that read (commit_where_preconditions_hold). Returns how many it
// deleted.
std::size_t delete_unchanged(const Client& client, std::string_view collection,
                             std::span<const Document> documents, std::string_view target);

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

}  // namespace docket::firestore::detail

#endif  // DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_DOCUMENTS_H_
