// The Cosmos DB outbox's claim (cosmos_outbox_claim.h).
#include "providers/cosmos/cosmos_outbox_claim.h"

#include <limits>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <utility>

#include "docket/outbox/outbox_schema.h"
#include "providers/cosmos/cosmos_items.h"
#include "providers/cosmos/cosmos_outbox_item.h"
#include "providers/kit/key_ordered_claim.h"

namespace docket::cosmos::detail::outbox {
namespace {

// The reads of one claim (queries across partitions) and its leases (If-Match writes).
class ClaimSource final : public kit::KeyOrderedSource {
 public:
  ClaimSource(const MessagePlace& place, OutboxLeases& leases, PartitionRangeCache& ranges,
              std::string_view token, Timestamp now, Timestamp lease_until)
      : place_(place),
        leases_(leases),
        ranges_(ranges),
        token_(token),
        now_(now),
        lease_until_(lease_until) {}

  kit::ParkedKeyHeads parked_key_heads() override {
    kit::ParkedKeyHeads heads;
    const std::vector<nlohmann::json> items = query_items(
        place_.client,
        {.container = place_.container,
         .sql = "SELECT c.tenant, c.orderingKey, c.parkedSequence FROM c WHERE c.docketTable = "
                "@table AND c.parkedSequence > 0 AND IS_STRING(c.orderingKey)",
         .parameters = {{{"name", "@table"}, {"value", kOutboxTable}}}},
        std::numeric_limits<std::size_t>::max());
    for (const nlohmann::json& item : items) {
      kit::note_parked(
          heads, {item.value("tenant", std::string()), item.value("orderingKey", std::string())},
          item.value(std::string(kParkedSequence), std::int64_t{0}));
    }
    return heads;
  }

  // One page of the pending query; the messages are kept (by id) for their leases.
  kit::PendingPage pending_after(std::int64_t after, std::size_t page) override {
    std::vector<FoundMessage> pending = query_messages(place_, "c.pendingSequence > @after",
                                                       {{{"name", "@after"}, {"value", after}}},
                                                       "c.pendingSequence", page, &ranges_);
    kit::PendingPage result;
    if (pending.size() == page) {
      result.next_after = pending.back().row.record.sequence;
    }
    for (FoundMessage& message : pending) {
      result.messages.push_back(
          {.record = message.row.record, .leasable = kit::leasable(message.row, now_)});
      const std::string id = message.row.record.id;
      read_[id] = std::move(message);
    }
    return result;
  }

  std::vector<std::optional<OutboxRecord>> lease(
      std::span<const OutboxRecord> candidates) override {
    std::vector<FoundMessage> read;
    read.reserve(candidates.size());
    for (const OutboxRecord& candidate : candidates) {
      read.push_back(read_.at(candidate.id));
    }
    return leases_.lease_each(place_, read, token_, now_, lease_until_);
  }

 private:
  const MessagePlace& place_;
  OutboxLeases& leases_;
  PartitionRangeCache& ranges_;
  std::string_view token_;
  Timestamp now_;
  Timestamp lease_until_;
  std::map<std::string, FoundMessage> read_;  // the pending messages read, as read, by id
};

}  // namespace

std::vector<OutboxRecord> claim_messages(const MessagePlace& place, OutboxLeases& leases,
                                         PartitionRangeCache& ranges, std::string_view token,
                                         Timestamp now, Timestamp lease_until, std::size_t limit) {
  ClaimSource source(place, leases, ranges, token, now, lease_until);
  return kit::claim_key_ordered(source, limit);
}

}  // namespace docket::cosmos::detail::outbox
