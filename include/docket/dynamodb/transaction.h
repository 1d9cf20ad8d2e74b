// A handler's view of the DynamoDB unit of work: Put, Update, Delete and ConditionCheck on
// the application's own tables, buffered, and sent at commit together with the inbox's
// dedup item in ONE TransactWriteItems, so that the handler's writes and the record that
// the message was processed are applied together or not at all.
//
//   handlers.on<Order>("order", [](const Order& o, docket::dynamodb::Transaction& tx,
//                                  docket::HandlerContext&) {
//     const std::string qty = std::to_string(o.qty);
//     tx.insert("orders", {{"id", {{"S", o.id}}}, {"qty", {{"N", qty}}}});
//     tx.update("stock", {{"sku", {{"S", o.sku}}}},
//               {.text = "SET #qty = #qty - :n",
//                .names = {{"#qty", "qty"}},
//                .values = {{":n", {{"N", qty}}}}},
//               docket::dynamodb::Expression{.text = "#qty >= :n"});
//   });
//
// Items and keys are DynamoDB JSON, exactly as the DynamoDB API and the AWS SDKs write
// them: an object of attribute name to typed value ({"S": "text"}, {"N": "42"},
// {"B": base64}, {"BOOL": true}, {"L": [...]}, {"M": {...}}, ...). Table names are used
// as given (the store URL's table_prefix applies to docket's own tables only).
//
// Invariants:
//  - nothing is sent before the unit of work commits, so a handler cannot read its own
//    writes (DynamoDB has no interactive transaction); a handler that throws leaves no
//    write behind;
//  - one unit of work touches each item at most once (DynamoDB refuses two actions on one
//    item in one transaction): a second insert of a key staged already throws
//    UniqueViolationError at once, any other second action on one item InvalidInputError;
//  - a unit of work holds at most 100 actions and 4 MB (the dedup item included), as
//    TransactWriteItems does: the write that would go past either is refused with
//    CommitLimitError before anything is sent (dispatch_batch then splits its batch);
//  - each write is checked before it is staged: DynamoDB JSON well formed, the item at
//    most 400 KB, its key exactly the table's key attributes within DynamoDB's key
//    limits (the key schema of each table is read once per store with DescribeTable).
//    A refused write throws InvalidInputError (KeyTooLongError for a key) and stages
//    nothing;
//  - at commit, a condition that did not hold cancels the whole transaction: on the
//    dedup item it means the message was processed already (the dispatcher reports a
//    duplicate); on an insert it is a UniqueViolationError naming the table and key; on
//    any other write a ConditionFailedError naming the table, the key and the condition.
//
// Thread-safety: belongs to the dispatching thread, valid during the handler call.
#ifndef DOCKET_DYNAMODB_TRANSACTION_H_
#define DOCKET_DYNAMODB_TRANSACTION_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "docket/core/handler_transaction.h"

namespace docket::dynamodb {

// The provider's side of a Transaction, opaque here: docket's DynamoDB unit of work
// derives from it, and its static members, a friend of Transaction, are the only way to
// put a Transaction on a unit and to reach the unit again. Defined in the provider's own
// code (src/providers/dynamodb/dynamodb_transaction_access.h), so no application can.
class TransactionAccess;

// A DynamoDB expression with its placeholders: `names` maps #placeholders to attribute
// names, `values` maps :placeholders to DynamoDB JSON values. An update and its
// condition share one map of each in the request, so a placeholder both use must mean
// the same in both (else InvalidInputError).
struct Expression {
  std::string text;
  nlohmann::json names = nlohmann::json::object();
  nlohmann::json values = nlohmann::json::object();
};

class Transaction : public HandlerTransaction {
 public:
  static constexpr std::string_view kTypeName = "docket::dynamodb::Transaction";

  std::string_view type_name() const noexcept override { return kTypeName; }

  // Puts the whole item, replacing any item with its key, where `condition` (when given)
  // holds on the item there now.
  void put(std::string_view table, nlohmann::json item,
           std::optional<Expression> condition = std::nullopt);

  // Puts the item only where no item has its key: at commit, UniqueViolationError naming
  // the table and the key when one does.
  void insert(std::string_view table, nlohmann::json item);

  // Updates (or creates) the item under `key` with `update` (SET / REMOVE / ADD /
  // DELETE clauses), where `condition` (when given) holds.
  void update(std::string_view table, nlohmann::json key, Expression update,
              std::optional<Expression> condition = std::nullopt);

  // Deletes the item under `key` (nothing to delete is no error), where `condition`
  // (when given) holds.
  void remove(std::string_view table, nlohmann::json key,
              std::optional<Expression> condition = std::nullopt);

  // Writes nothing, but commits only where `condition` holds on the item under `key`.
  void condition_check(std::string_view table, nlohmann::json key, Expression condition);

 private:
  friend class TransactionAccess;

  explicit Transaction(TransactionAccess& unit) noexcept : unit_(&unit) {}

  // The unit of work underneath: the writes are staged there.
  TransactionAccess* unit_;
};

}  // namespace docket::dynamodb

#endif  // DOCKET_DYNAMODB_TRANSACTION_H_
