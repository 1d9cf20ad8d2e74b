// The Cosmos DB outbox's claim (cosmos_outbox_claim.h).
#include "providers/cosmos/cosmos_outbox_claim.h"

#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "docket/outbox/outbox_schema.h"
#include "providers/cosmos/cosmos_items.h"
#include "providers/cosmos/cosmos_outbox_item.h"

namespace docket::cosmos::detail::outbox {
namespace {

// How many times a claim reads again when other relays leased candidates it read.
constexpr int kClaimRounds = 3;
// How many pages of pending messages one round reads past messages it may not lease (in
// backoff, leased, or held by their key) before it settles for fewer.
constexpr int kClaimPages = 8;
// The fewest pending messages a page reads.
constexpr std::size_t kMinClaimPage = 32;

using KeyOfTenant = std::pair<std::string, std::string>;

// The lowest parked sequence of each (tenant, ordering key) that has a parked message.
std::map<KeyOfTenant, std::int64_t> parked_key_heads(const MessagePlace& place) {
  std::map<KeyOfTenant, std::int64_t> heads;
  const std::vector<nlohmann::json> items = query_items(
      place.client,
      {.container = place.container,
       .sql = "SELECT c.tenant, c.orderingKey, c.parkedSequence FROM c WHERE c.docketTable = "
              "@table AND c.parkedSequence > 0 AND IS_STRING(c.orderingKey)",
       .parameters = {{{"name", "@table"}, {"value", kOutboxTable}}}},
      std::numeric_limits<std::size_t>::max());
  for (const nlohmann::json& item : items) {
    const KeyOfTenant key{item.value("tenant", std::string()),
                          item.value("orderingKey", std::string())};
    const std::int64_t sequence = item.value(std::string(kParkedSequence), std::int64_t{0});
    const auto [it, inserted] = heads.emplace(key, sequence);
    if (!inserted) {
      it->second = std::min(it->second, sequence);
    }
  }
  return heads;
}

// The messages a round may try to lease, lowest sequence first, at most `wanted`, none of
// `seen`.
std::vector<FoundMessage> claimable(const MessagePlace& place, Timestamp now, std::size_t wanted,
                                    const std::set<std::string>& seen) {
  const std::map<KeyOfTenant, std::int64_t> parked = parked_key_heads(place);
  std::set<KeyOfTenant> keys_met;
  std::vector<FoundMessage> result;
  const std::size_t page = std::max(wanted, kMinClaimPage);
  std::int64_t after = 0;
  for (int read = 0; read < kClaimPages && result.size() < wanted; ++read) {
    std::vector<FoundMessage> pending =
        query_messages(place, "c.pendingSequence > @after",
                       {{{"name", "@after"}, {"value", after}}}, "c.pendingSequence", page);
    for (FoundMessage& message : pending) {
      const OutboxRecord& record = message.row.record;
      after = std::max(after, record.sequence);
      if (result.size() == wanted) {
        break;
      }
      if (record.ordering_key) {
        const KeyOfTenant key{record.tenant, *record.ordering_key};
        const auto head = parked.find(key);
        if (!keys_met.insert(key).second ||
            (head != parked.end() && head->second < record.sequence)) {
          continue;
        }
      }
      if (!seen.contains(record.id) && kit::leasable(message.row, now)) {
        result.push_back(std::move(message));
      }
    }
    if (pending.size() < page) {
      break;  // every pending message was read
    }
  }
  return result;
}

}  // namespace

std::vector<OutboxRecord> claim_messages(const MessagePlace& place, std::string_view token,
                                         Timestamp now, Timestamp lease_until, std::size_t limit) {
  std::vector<OutboxRecord> claimed;
  std::set<std::string> seen;  // ids leased, or found taken, by this call
  for (int round = 0; round < kClaimRounds && claimed.size() < limit; ++round) {
    std::vector<FoundMessage> candidates = claimable(place, now, limit - claimed.size(), seen);
    if (candidates.empty()) {
      break;
    }
    bool all_leased = true;
    for (FoundMessage& candidate : candidates) {
      seen.insert(candidate.row.record.id);
      kit::OutboxRow leased = candidate.row;
      kit::lease(leased, token, lease_until);
      if (rewrite_message(place, candidate, leased)) {
        claimed.push_back(std::move(leased.record));
      } else {
        all_leased = false;  // another relay took it, or it changed since the read
      }
    }
    if (all_leased) {
      break;  // none taken by another relay: the read found every message due
    }
  }
  std::sort(claimed.begin(), claimed.end(),
            [](const OutboxRecord& a, const OutboxRecord& b) { return a.sequence < b.sequence; });
  return claimed;
}

}  // namespace docket::cosmos::detail::outbox
