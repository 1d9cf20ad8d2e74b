// The DynamoDB outbox's claim (dynamodb_outbox_claim.h).
#include "providers/dynamodb/dynamodb_outbox_claim.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <span>

#include "providers/dynamodb/dynamodb_conditional_writes.h"
#include "providers/dynamodb/dynamodb_outbox_claimable.h"
#include "providers/dynamodb/dynamodb_outbox_requests.h"
#include "providers/kit/key_ordered_claim.h"

namespace docket::dynamodb::detail::outbox {
namespace {

// The pending index's reads, and the leases: each a conditional write, all of one
// selection applied where their conditions hold (apply_where_conditions_hold).
class ClaimLeases final : public ClaimReads {
 public:
  ClaimLeases(const Client& client, const std::string& table, std::string_view store,
              const Lease& lease, const std::function<void(const OutboxRecord&)>& leased)
      : ClaimReads(client, table, store, lease.now), lease_(lease), leased_(leased) {}

  std::vector<std::optional<OutboxRecord>> lease(
      std::span<const OutboxRecord> candidates) override {
    std::vector<nlohmann::json> actions;
    actions.reserve(candidates.size());
    for (const OutboxRecord& candidate : candidates) {
      actions.push_back(lease_action(table_, candidate, lease_.token, lease_.now, lease_.until));
    }
    const std::vector<bool> applied = apply_where_conditions_hold(client_, table_, store_, actions);
    std::vector<std::optional<OutboxRecord>> result(candidates.size());
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      if (applied.at(i)) {
        leased_(candidates[i]);
        result[i] = candidates[i];
      }
    }
    return result;
  }

 private:
  const Lease& lease_;
  const std::function<void(const OutboxRecord&)>& leased_;
};

}  // namespace

std::vector<OutboxRecord> claim(const Client& client, const std::string& table,
                                std::string_view store, const Lease& lease, std::size_t limit,
                                const std::function<void(const OutboxRecord&)>& leased) {
  ClaimLeases source(client, table, store, lease, leased);
  return kit::claim_key_ordered(source, limit);
}

}  // namespace docket::dynamodb::detail::outbox
