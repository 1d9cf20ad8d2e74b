// The unit of work's commit of exactly one write (dynamodb_unit.h) that may go without a
// transaction's token (an outbox message, a dedup record), and nothing else (no other
// action, no saga's save beside it, no hold), sent as its own PutItem with the same
// condition, instead of a TransactWriteItems of one action. Atomicity is the same (one item), and
// DynamoDB bills a transactional write twice the write units of a plain one.
//
// Its outcomes are those of the transactional commit: a failed condition or a refusal
// as malformed is read as the one cancellation reason of the transaction it replaces
// (Unit::throw_cancelled), so every error is the one the same write meets inside
// TransactWriteItems; a TransactionConflict (another transaction holds the item) is
// sent again, at most kMaxCommitAttempts in all; throttling is repeated by the client.
//
// Replay: a single write carries no ClientRequestToken, and a conditional write sent
// again after it was applied would find its own item and report a conflict. So it is
// sent once (Replay::kUnsafe: a server error or timeout is reported as such, "may or
// may not have been applied"; a dedup record's redelivery then finds it recorded),
// except a numbered put (an outbox message): its item
// holds a sequence drawn for this commit alone, so it asks for the item as it was when
// its condition failed (ALL_OLD) and an item equal to the one sent is this commit's own
// first try, applied; such a put may be sent again (Replay::kSafe).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "docket/core/error.h"
#include "providers/dynamodb/dynamodb_unit.h"

namespace docket::dynamodb::detail {

void Unit::commit_single_write(const nlohmann::json& element, bool numbered,
                               const std::vector<const UnitSagas::Save*>& sagas) const {
  // The writes that may go alone (an outbox message, a dedup record) are puts.
  constexpr std::string_view operation = "PutItem";
  nlohmann::json body = element.begin().value();
  if (numbered) {
    body["ReturnValuesOnConditionCheckFailure"] = "ALL_OLD";
  }
  const std::string table = body.at("TableName").get<std::string>();
  for (int attempt = 1;; ++attempt) {
    const Response response = context_.client.call(
        {.operation = operation,
         .table = table,
         .replay = numbered ? Replay::kSafe : Replay::kUnsafe,
         .expected = {ErrorKind::kConditionalCheckFailed, ErrorKind::kValidation,
                      ErrorKind::kTransactionConflict}},
        body);
    if (response.ok()) {
      return;
    }
    const ServiceError& error = response.error();
    if (error.kind == ErrorKind::kTransactionConflict) {
      if (attempt == kMaxCommitAttempts) {
        throw InfrastructureError(context_.store + ": a " + std::string(operation) + " met " +
                                  std::to_string(kMaxCommitAttempts) +
                                  " concurrent transactions on its item in a row and was not "
                                  "applied; nothing was written; retry later");
      }
      continue;  // not applied: the item was in another transaction
    }
    if (numbered && error.kind == ErrorKind::kConditionalCheckFailed &&
        error.item == body.at("Item")) {
      return;  // the client's resend found this commit's own first try, applied
    }
    // Read as the TransactWriteItems it replaces would have been cancelled.
    ServiceError cancelled = error;
    cancelled.kind = ErrorKind::kTransactionCanceled;
    cancelled.cancellation_reasons = {{.code = error.kind == ErrorKind::kValidation
                                                   ? "ValidationError"
                                                   : "ConditionalCheckFailed",
                                       .message = error.message,
                                       .item = error.item}};
    throw_cancelled(cancelled, sagas);
  }
}

}  // namespace docket::dynamodb::detail
