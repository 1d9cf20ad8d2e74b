#include "providers/dynamodb/dynamodb_conditional_writes.h"

#include <cstddef>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>

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

// One TransactWriteItems: the whole groups from the front of `remaining` that fit in
// kMaxTransactionActions, in order.
struct Request {
  nlohmann::json body;
  std::size_t groups = 0;          // how many of `remaining` it holds
  std::vector<std::size_t> owner;  // the group of each of its actions
};

Request next_request(std::span<const ActionGroup> groups,
                     const std::vector<std::size_t>& remaining) {
  Request request{.body = {{"TransactItems", nlohmann::json::array()},
                           {"ClientRequestToken", Uuid::v4().to_string()}},
                  .groups = 0,
                  .owner = {}};
  nlohmann::json& items = request.body["TransactItems"];
  for (const std::size_t g : remaining) {
    if (items.size() + groups[g].size() > kMaxTransactionActions) {
      break;
    }
    for (const nlohmann::json& action : groups[g]) {
      items.push_back(action);
      request.owner.push_back(g);
    }
    ++request.groups;
  }
  return request;
}

}  // namespace

std::vector<bool> apply_where_conditions_hold(const Client& client, std::string_view table,
                                              std::string_view store,
                                              std::span<const ActionGroup> groups,
                                              const RefusedAction& refused) {
  std::vector<bool> applied(groups.size(), false);
  std::vector<std::size_t> remaining;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    if (groups[g].empty() || groups[g].size() > kMaxTransactionActions) {
      throw std::invalid_argument("apply_where_conditions_hold: a group of " +
                                  std::to_string(groups[g].size()) + " actions (1 to " +
                                  std::to_string(kMaxTransactionActions) + ")");
    }
    remaining.push_back(g);
  }
  int attempts = 0;  // in a row without one applied
  while (!remaining.empty()) {
    if (++attempts > kMaxCommitAttempts) {
      throw InfrastructureError(std::string(store) + ": a TransactWriteItems of " +
                                std::to_string(remaining.size()) + " conditional changes met " +
                                std::to_string(kMaxCommitAttempts) +
                                " concurrent transactions (or throttling) in a row and was not "
                                "applied; retry later");
    }
    const Request request = next_request(groups, remaining);
    const Response response = client.call(
        {.operation = "TransactWriteItems",
         .table = table,
         .replay = Replay::kSafe,
         .expected = {ErrorKind::kTransactionCanceled, ErrorKind::kTransactionConflict}},
        request.body);
    const auto sent = remaining.begin() + static_cast<std::ptrdiff_t>(request.groups);
    // What is left: the groups of this request to send again, then those not in it.
    std::vector<std::size_t> kept;
    if (response.ok()) {
      for (auto g = remaining.begin(); g != sent; ++g) {
        applied[*g] = true;
      }
      attempts = 0;
    } else if (response.error().kind == ErrorKind::kTransactionConflict) {
      kept.assign(remaining.begin(), sent);
    } else {
      const ServiceError& error = response.error();
      const auto& reasons = error.cancellation_reasons;
      if (reasons.size() != request.owner.size()) {
        throw InfrastructureError(std::string(store) + ": TransactWriteItems cancelled with " +
                                  std::to_string(reasons.size()) + " reasons for " +
                                  std::to_string(request.owner.size()) + " actions: " + error.type +
                                  ": " + error.message);
      }
      std::set<std::size_t> refused_groups;
      for (std::size_t k = 0; k < reasons.size(); ++k) {
        const std::string& code = reasons[k].code;
        if (code == "ConditionalCheckFailed") {
          // Not applied: its condition does not hold, and its group goes with it.
          if (refused_groups.insert(request.owner[k]).second && refused) {
            refused(request.owner[k], reasons[k].item);
          }
        } else if (code != "None" && !only_contention(code)) {
          throw InfrastructureError(std::string(store) + ": TransactWriteItems cancelled by " +
                                    request.body["TransactItems"][k].dump() + ": " + code + " (" +
                                    reasons[k].message + "); nothing of it was written");
        }
      }
      for (auto g = remaining.begin(); g != sent; ++g) {
        if (!refused_groups.contains(*g)) {
          kept.push_back(*g);
        }
      }
    }
    kept.insert(kept.end(), sent, remaining.end());
    remaining = std::move(kept);
  }
  return applied;
}

std::vector<bool> apply_where_conditions_hold(const Client& client, std::string_view table,
                                              std::string_view store,
                                              const std::vector<nlohmann::json>& actions,
                                              const RefusedAction& refused) {
  std::vector<ActionGroup> groups;
  groups.reserve(actions.size());
  for (const nlohmann::json& action : actions) {
    groups.emplace_back(1, action);
  }
  return apply_where_conditions_hold(client, table, store, groups, refused);
}

}  // namespace docket::dynamodb::detail
