// A handler's view of the Firestore unit of work: create, set, update, delete and
// precondition checks on the application's own documents, buffered, and sent at commit
// together with the inbox's dedup document in ONE Firestore commit, so that the
// handler's writes and the record that the message was processed are applied together
// or not at all.
//
//   handlers.on<Order>("order", [](const Order& o, docket::firestore::Transaction& tx,
//                                  docket::HandlerContext&) {
//     tx.create("orders", o.id, {{"qty", {{"integerValue", std::to_string(o.qty)}}}});
//     const auto stock = tx.get("stock", o.sku);  // the committed document, read now
//     const long left =
//         std::stol(stock->fields["qty"]["integerValue"].get<std::string>()) - o.qty;
//     tx.update("stock", o.sku, {{"qty", {{"integerValue", std::to_string(left)}}}},
//               docket::firestore::Condition::unchanged(stock->update_time));
//   });
//
// An Outbox on a Firestore outbox store of the same URL stages its messages through the
// same Transaction (docket/outbox/outbox.h), so they commit with these writes too.
//
// Fields are Firestore Value JSON, exactly as the Firestore REST API writes them: an
// object of field name to typed value ({"stringValue": "text"}, {"integerValue": "42"},
// {"doubleValue": 1.5}, {"booleanValue": true}, {"timestampValue": "...Z"},
// {"mapValue": {"fields": {...}}}, {"arrayValue": {"values": [...]}}, {"nullValue":
// null}, ...). Collections are top-level collection ids used as given (the store URL's
// prefix applies to docket's own collections only).
//
// Invariants:
//  - nothing is sent before the unit of work commits, so get() reads the committed
//    state, never this unit's own writes; a handler that throws leaves no write behind.
//    Reads take no lock: what a handler decided from a read holds at commit only where
//    it made the write conditional on Condition::unchanged(update_time) of that read;
//  - one unit of work writes each document at most once: a second create of a document
//    staged already throws UniqueViolationError at once, any other second write to one
//    document InvalidInputError;
//  - a unit of work holds at most 500 writes (the dedup document included) and 10 MiB
//    of documents, as one Firestore commit does: the write that would go past either is
//    refused with CommitLimitError before anything is sent (dispatch_batch then splits
//    its batch);
//  - each write is checked before it is staged: a collection id and a document id
//    Firestore accepts (no '/', not "." or "..", not __.*__, at most 1,500 bytes),
//    fields a JSON object of Firestore values, the document at most 1 MiB. A refused
//    write throws InvalidInputError naming the collection and document, and stages
//    nothing;
//  - at commit, a condition that did not hold refuses the whole commit: on the dedup
//    document it means the message was processed already (the dispatcher reports a
//    duplicate); on a create it is a UniqueViolationError naming the collection and
//    document; on any other write a ConditionFailedError naming the collection, the
//    document and the condition. Nothing of the unit is written in any case.
//
// Thread-safety: belongs to the dispatching thread, valid during the handler call.
#ifndef DOCKET_FIRESTORE_TRANSACTION_H_
#define DOCKET_FIRESTORE_TRANSACTION_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "docket/core/handler_transaction.h"

namespace docket::firestore {

// The provider's side of a Transaction, opaque here: docket's Firestore unit of work
// derives from it, and its static members, a friend of Transaction, are the only way to
// put a Transaction on a unit and to reach the unit again. Defined in the provider's own
// code (src/providers/firestore/firestore_transaction_access.h), so no application can.
class TransactionAccess;

// What must hold of one document when the unit of work commits.
class Condition {
 public:
  // The document exists.
  static Condition exists() { return Condition(true, std::nullopt); }
  // No document has the id.
  static Condition missing() { return Condition(false, std::nullopt); }
  // The document exists and was not written since the read that returned `update_time`
  // (DocumentRead::update_time, exactly as read).
  static Condition unchanged(std::string update_time) {
    return Condition(std::nullopt, std::move(update_time));
  }

  // true: must exist; false: must not; nullopt: unchanged since update_time().
  const std::optional<bool>& must_exist() const noexcept { return must_exist_; }
  const std::optional<std::string>& update_time() const noexcept { return update_time_; }

 private:
  Condition(std::optional<bool> must_exist, std::optional<std::string> update_time)
      : must_exist_(must_exist), update_time_(std::move(update_time)) {}

  std::optional<bool> must_exist_;
  std::optional<std::string> update_time_;
};

// A document as Transaction::get read it.
struct DocumentRead {
  std::string id;
  nlohmann::json fields;    // field name -> Firestore Value JSON
  std::string update_time;  // for Condition::unchanged
};

class Transaction : public HandlerTransaction {
 public:
  static constexpr std::string_view kTypeName = "docket::firestore::Transaction";

  std::string_view type_name() const noexcept override { return kTypeName; }

  // Writes the document only where none has the id: at commit, UniqueViolationError
  // naming the collection and the document when one does.
  void create(std::string_view collection, std::string_view id, nlohmann::json fields);

  // Writes the whole document (replacing any there), where `condition` (when given)
  // holds.
  void set(std::string_view collection, std::string_view id, nlohmann::json fields,
           std::optional<Condition> condition = std::nullopt);

  // Writes only `fields` of the document, keeping its others, where `condition` holds:
  // by default Condition::exists() (an update of a missing document fails at commit
  // with ConditionFailedError).
  void update(std::string_view collection, std::string_view id, nlohmann::json fields,
              Condition condition = Condition::exists());

  // Deletes the document (nothing to delete is no error), where `condition` (when
  // given) holds.
  void remove(std::string_view collection, std::string_view id,
              std::optional<Condition> condition = std::nullopt);

  // Writes nothing, but commits only where `condition` holds on the document.
  void check(std::string_view collection, std::string_view id, Condition condition);

  // The committed document now (a strongly consistent read, sent at once), or nullopt
  // when there is none. Not this unit's staged writes: they are sent at commit.
  std::optional<DocumentRead> get(std::string_view collection, std::string_view id) const;

 private:
  friend class TransactionAccess;

  explicit Transaction(TransactionAccess& unit) noexcept : unit_(&unit) {}

  // The unit of work underneath: the writes are staged there.
  TransactionAccess* unit_;
};

}  // namespace docket::firestore

#endif  // DOCKET_FIRESTORE_TRANSACTION_H_
