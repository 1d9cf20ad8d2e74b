#include "providers/dynamodb/dynamodb_outbox_claim.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>
#include <utility>

#include "providers/dynamodb/dynamodb_conditional_writes.h"
#include "providers/dynamodb/dynamodb_outbox_claimable.h"
#include "providers/dynamodb/dynamodb_outbox_requests.h"

namespace docket::dynamodb::detail::outbox {
namespace {

// How many times claim reads the pending index again when other relays leased every
// candidate it read.
constexpr int kClaimRounds = 3;

}  // namespace

std::vector<OutboxRecord> claim(const Client& client, const std::string& table,
                                std::string_view store, const Lease& lease, std::size_t limit,
                                const std::function<void(const OutboxRecord&)>& leased) {
  std::vector<OutboxRecord> claimed;
  std::set<std::string> held;  // ids leased by this call
  for (int round = 0; round < kClaimRounds && claimed.size() < limit; ++round) {
    std::vector<OutboxRecord> candidates;
    for (OutboxRecord& r : claimable(client, table, store, lease.now, limit)) {
      if (!held.contains(r.id)) {
        candidates.push_back(std::move(r));
      }
    }
    if (candidates.empty()) {
      break;
    }
    // Lease the lowest first; where another relay took some, the next candidates.
    std::size_t next = 0;
    while (claimed.size() < limit && next < candidates.size()) {
      const std::size_t count = std::min(limit - claimed.size(), candidates.size() - next);
      std::vector<nlohmann::json> actions;
      for (std::size_t i = next; i < next + count; ++i) {
        actions.push_back(lease_action(table, candidates[i], lease.token, lease.now, lease.until));
      }
      const std::vector<bool> applied = apply_where_conditions_hold(client, table, store, actions);
      for (std::size_t i = 0; i < count; ++i) {
        if (applied[i]) {
          held.insert(candidates[next + i].id);
          leased(candidates[next + i]);
          claimed.push_back(std::move(candidates[next + i]));
        }
      }
      next += count;
    }
  }
  std::sort(claimed.begin(), claimed.end(),
            [](const OutboxRecord& a, const OutboxRecord& b) { return a.sequence < b.sequence; });
  return claimed;
}

}  // namespace docket::dynamodb::detail::outbox
