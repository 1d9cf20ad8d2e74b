// The key-ordered outbox claim (key_ordered_claim.h).
#include "providers/kit/key_ordered_claim.h"

#include <algorithm>

namespace docket::kit {

void note_parked(ParkedKeyHeads& heads, TenantOrderingKey key, std::int64_t sequence) {
  const auto [it, inserted] = heads.emplace(std::move(key), sequence);
  if (!inserted) {
    it->second = std::min(it->second, sequence);
  }
}

std::vector<bool> KeyOrderedSource::held_back(std::span<const OutboxRecord> candidates) {
  return std::vector<bool>(candidates.size(), false);
}

std::vector<OutboxRecord> select_claimable(KeyOrderedSource& source, std::size_t wanted,
                                           const std::set<std::string>& tried) {
  const ParkedKeyHeads parked = source.parked_key_heads();
  std::set<TenantOrderingKey> keys_met;
  std::vector<OutboxRecord> result;
  const std::size_t page = std::max(wanted, kMinClaimPage);
  std::int64_t after = 0;
  for (int read = 0; read < kClaimPages && result.size() < wanted; ++read) {
    PendingPage pending = source.pending_after(after, page);
    const std::size_t page_first = result.size();
    for (PendingMessage& message : pending.messages) {
      if (result.size() == wanted) {
        break;
      }
      const OutboxRecord& record = message.record;
      if (record.ordering_key) {
        // The first message of a key met is its earliest pending one: it holds the later
        // ones, and a parked message of the key below it holds it.
        const TenantOrderingKey key{record.tenant, *record.ordering_key};
        const auto head = parked.find(key);
        if (!keys_met.insert(key).second ||
            (head != parked.end() && head->second < record.sequence)) {
          continue;
        }
      }
      if (message.leasable && !tried.contains(record.id)) {
        result.push_back(std::move(message.record));
      }
    }
    // The index may be behind: what the key items hold back of this page goes.
    const std::span<const OutboxRecord> fresh(
        result.begin() + static_cast<std::ptrdiff_t>(page_first), result.end());
    const std::vector<bool> held = source.held_back(fresh);
    std::size_t kept = page_first;
    for (std::size_t i = page_first; i < result.size(); ++i) {
      if (!held.at(i - page_first)) {
        if (kept != i) {
          result[kept] = std::move(result[i]);
        }
        ++kept;
      }
    }
    result.resize(kept);
    if (!pending.next_after) {
      break;  // every pending message was read
    }
    after = *pending.next_after;
  }
  return result;
}

std::vector<OutboxRecord> claim_key_ordered(KeyOrderedSource& source, std::size_t limit) {
  std::vector<OutboxRecord> claimed;
  std::set<std::string> tried;  // ids leased, or found taken, by this call
  for (int round = 0; round < kClaimRounds && claimed.size() < limit; ++round) {
    const std::vector<OutboxRecord> candidates =
        select_claimable(source, limit - claimed.size(), tried);
    if (candidates.empty()) {
      break;
    }
    std::vector<std::optional<OutboxRecord>> leased = source.lease(candidates);
    bool all_leased = true;
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      tried.insert(candidates[i].id);
      if (leased.at(i)) {
        claimed.push_back(std::move(*leased[i]));
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

}  // namespace docket::kit
