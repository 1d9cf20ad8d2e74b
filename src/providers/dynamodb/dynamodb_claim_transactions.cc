#include "providers/dynamodb/dynamodb_claim_transactions.h"

#include <string>
#include <utility>

#include "docket/uuid.h"

namespace docket::dynamodb::claim {
namespace {

constexpr std::string_view kConditionFailed = "ConditionalCheckFailed";

}  // namespace

std::vector<std::size_t> transact_each(
    const Client& client, std::string_view table, std::vector<std::size_t> pending,
    const std::function<nlohmann::json(std::size_t)>& action,
    const std::function<void(std::size_t, const nlohmann::json&)>& refused) {
  // One entry left is cheaper as a request of its own than as a transaction.
  while (pending.size() > 1) {
    nlohmann::json request = {{"TransactItems", nlohmann::json::array()},
                              {"ClientRequestToken", Uuid::v4().to_string()}};
    for (const std::size_t i : pending) {
      request["TransactItems"].push_back(action(i));
    }
    // The token makes the client's resend after an ambiguous failure safe: DynamoDB
    // applies one token once.
    const Response response = client.call(
        {.operation = "TransactWriteItems",
         .table = table,
         .replay = Replay::kSafe,
         .expected = {ErrorKind::kTransactionCanceled, ErrorKind::kTransactionConflict}},
        request);
    if (response.ok()) {
      return {};
    }
    const auto& reasons = response.error().cancellation_reasons;
    if (reasons.size() != pending.size()) {
      return pending;  // a conflict with a transaction in flight: one request each
    }
    std::vector<std::size_t> unapplied;
    for (std::size_t k = 0; k < pending.size(); ++k) {
      if (reasons[k].code == kConditionFailed) {
        refused(pending[k], reasons[k].item);
      } else {
        unapplied.push_back(pending[k]);  // "None", or another transaction's write
      }
    }
    if (unapplied.size() == pending.size()) {
      return pending;  // no entry refused: conflicts only, one request each
    }
    pending = std::move(unapplied);
  }
  return pending;
}

}  // namespace docket::dynamodb::claim
