// A handler's view of the Cosmos DB unit of work: creates, upserts, replaces and deletes
// of the application's own items, buffered, and sent at commit together with the inbox's
// dedup item as ONE transactional batch, so that the handler's writes and the record that
// the message was processed are applied together or not at all.
//
//   handlers.on<Order>("order", [](const Order& o, docket::cosmos::Transaction& tx,
//                                  docket::HandlerContext&) {
//     tx.create("order:" + o.id, {{"qty", o.qty}});
//     const auto stock = tx.read("stock:" + o.sku);  // the committed item, read now
//     nlohmann::json left = stock->item;
//     left["qty"] = left["qty"].get<int>() - o.qty;
//     tx.replace("stock:" + o.sku, left, stock->etag);  // only if unchanged since the read
//   });
//
// Where the writes go: a transactional batch holds one logical partition of one container,
// so every item of a unit of work lives in the inbox's container ({prefix}docket_inbox of
// the store URL) and in the partition of the message's tenant: the unit sets each item's
// partition key property "pk" to partition() (an item that names another is refused). A
// handler cannot write elsewhere through this Transaction; one whose effects belong in
// other partitions or containers runs on the claim inbox (docket/inbox/claim_inbox_store.h),
// which commits nothing with its handlers. docs/cosmos.md says which deployments fit.
//
// Invariants:
//  - nothing is sent before the unit of work commits, so read() sees the committed item,
//    never this unit's own writes; a handler that throws leaves no write behind;
//  - one unit of work writes each item at most once: a second create of an item staged
//    already throws UniqueViolationError at once, any other second write InvalidInputError;
//  - a unit of work holds at most 100 operations (the dedup item included) and 2 MB, as
//    one transactional batch does: the write that would go past either is refused with
//    CommitLimitError before anything is sent (dispatch_batch then splits its batch, as it
//    does for a message of another tenant, whose partition is another);
//  - an id is 1 to 1,023 bytes without '/', '\', '?' or '#'; an item a JSON object of at
//    most 2 MB. A refused write throws InvalidInputError naming the item and stages nothing;
//  - at commit, the batch applies wholly or not at all: a dedup item that exists means the
//    message was processed already (the dispatcher reports a duplicate); a create of an
//    item that exists is a UniqueViolationError naming it; a replace or remove whose etag
//    is stale, or whose item is gone, a ConditionFailedError naming the item.
//
// Thread-safety: belongs to the dispatching thread, valid during the handler call.
#ifndef DOCKET_COSMOS_TRANSACTION_H_
#define DOCKET_COSMOS_TRANSACTION_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "docket/core/handler_transaction.h"

namespace docket::cosmos {

// The provider's side of a Transaction, opaque here: docket's Cosmos DB unit of work
// derives from it, and its static members, a friend of Transaction, are the only way to
// put a Transaction on a unit and to reach the unit again. Defined in the provider's own
// code (src/providers/cosmos/cosmos_transaction_access.h), so no application can.
class TransactionAccess;

// An item as Transaction::read read it.
struct ItemRead {
  std::string id;
  nlohmann::json item;  // the whole item, the service's system properties (_etag, ...) too
  std::string etag;     // for a conditional replace or remove
};

class Transaction : public HandlerTransaction {
 public:
  static constexpr std::string_view kTypeName = "docket::cosmos::Transaction";

  std::string_view type_name() const noexcept override { return kTypeName; }

  // The partition key value of every item of this unit of work: the tenant of its
  // messages (the ambient tenant, TenantScope, before the unit records one).
  std::string partition() const;

  // Writes the item only where none has the id: at commit, UniqueViolationError naming
  // it when one does.
  void create(std::string_view id, nlohmann::json item);

  // Writes the whole item, replacing any there.
  void upsert(std::string_view id, nlohmann::json item);

  // Replaces the existing item: with `etag`, only if it is unchanged since the read that
  // returned it. ConditionFailedError at commit otherwise, or when it does not exist.
  void replace(std::string_view id, nlohmann::json item,
               std::optional<std::string> etag = std::nullopt);

  // Deletes the existing item (with `etag`, only if unchanged since that read);
  // ConditionFailedError at commit when it does not exist or changed.
  void remove(std::string_view id, std::optional<std::string> etag = std::nullopt);

  // The committed item now (a strongly consistent point read, sent at once), or nullopt
  // when there is none. Not this unit's staged writes: they are sent at commit.
  std::optional<ItemRead> read(std::string_view id) const;

 private:
  friend class TransactionAccess;

  explicit Transaction(TransactionAccess& unit) noexcept : unit_(&unit) {}

  // The unit of work underneath: the writes are staged there.
  TransactionAccess* unit_;
};

}  // namespace docket::cosmos

#endif  // DOCKET_COSMOS_TRANSACTION_H_
