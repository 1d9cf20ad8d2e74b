#include "providers/dynamodb/dynamodb_conditional_writes.h"

#include <algorithm>
#include <cstddef>
#include <string>

#include "docket/core/error.h"
#include "docket/core/uuid.h"
#include "providers/dynamodb/dynamodb_limits.h"
#include "providers/dynamodb/dynamodb_unit.h"

namespace docket::dynamodb::detail {
namespace {

bool only_contention(const std::string& code) {
  return code == "TransactionConflict" || code == "ThrottlingError" ||
         code == "ProvisionedThroughputExceeded" || code == "RequestLimitExceeded";
}

// Applies actions[first, last) and records the outcome in `applied`.
void apply_chunk(const Client& client, std::string_view table, std::string_view store,
                 const std::vector<nlohmann::json>& actions, std::size_t first, std::size_t last,
                 const RefusedAction& refused, std::vector<bool>& applied) {
  std::vector<std::size_t> remaining;
  for (std::size_t i = first; i < last; ++i) {
    remaining.push_back(i);
  }
  for (int attempt = 1; !remaining.empty(); ++attempt) {
    if (attempt > detail::kMaxCommitAttempts) {
      throw InfrastructureError(std::string(store) + ": a TransactWriteItems of " +
                                std::to_string(remaining.size()) + " outbox changes met " +
                                std::to_string(detail::kMaxCommitAttempts) +
                                " concurrent transactions (or throttling) in a row and was not "
                                "applied; retry later");
    }
    nlohmann::json request = {{"TransactItems", nlohmann::json::array()},
                              {"ClientRequestToken", Uuid::v4().to_string()}};
    for (const std::size_t i : remaining) {
      request["TransactItems"].push_back(actions[i]);
    }
    const Response response = client.call(
        {.operation = "TransactWriteItems",
         .table = table,
         .replay = Replay::kSafe,
         .expected = {ErrorKind::kTransactionCanceled, ErrorKind::kTransactionConflict}},
        request);
    if (response.ok()) {
      for (const std::size_t i : remaining) {
        applied[i] = true;
      }
      return;
    }
    const ServiceError& error = response.error();
    if (error.kind == ErrorKind::kTransactionConflict) {
      continue;
    }
    const auto& reasons = error.cancellation_reasons;
    if (reasons.size() != remaining.size()) {
      throw InfrastructureError(std::string(store) + ": TransactWriteItems cancelled with " +
                                std::to_string(reasons.size()) + " reasons for " +
                                std::to_string(remaining.size()) + " actions: " + error.type +
                                ": " + error.message);
    }
    std::vector<std::size_t> kept;
    for (std::size_t k = 0; k < reasons.size(); ++k) {
      const std::string& code = reasons[k].code;
      if (code == "ConditionalCheckFailed") {
        if (refused) {
          refused(remaining[k], reasons[k].item);
        }
        continue;  // not applied: its condition does not hold
      }
      if (code != "None" && !only_contention(code)) {
        throw InfrastructureError(std::string(store) + ": TransactWriteItems cancelled by " +
                                  actions[remaining[k]].dump() + ": " + code + " (" +
                                  reasons[k].message + "); nothing of it was written");
      }
      kept.push_back(remaining[k]);
    }
    remaining = std::move(kept);
  }
}

}  // namespace

std::vector<bool> apply_where_conditions_hold(const Client& client, std::string_view table,
                                              std::string_view store,
                                              const std::vector<nlohmann::json>& actions,
                                              const RefusedAction& refused) {
  std::vector<bool> applied(actions.size(), false);
  for (std::size_t first = 0; first < actions.size(); first += kMaxTransactionActions) {
    apply_chunk(client, table, store, actions, first,
                std::min(actions.size(), first + kMaxTransactionActions), refused, applied);
  }
  return applied;
}

}  // namespace docket::dynamodb::detail
