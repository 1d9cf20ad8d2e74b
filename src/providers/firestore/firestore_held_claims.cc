#include "providers/firestore/firestore_held_claims.h"

#include <utility>

namespace docket::firestore::detail {

void HeldClaims::remember(const std::string& id, WrittenEntry written) {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (const auto found = entries_.find(id); found != entries_.end()) {
    found->second = std::move(written);
  } else if (entries_.size() < kCapacity) {
    entries_.emplace(id, std::move(written));
  }
}

std::optional<WrittenEntry> HeldClaims::take(const std::string& id, const ClaimToken& token) {
  const std::lock_guard<std::mutex> lock(mutex_);
  const auto found = entries_.find(id);
  if (found == entries_.end() || found->second.entry.owner != token.owner ||
      found->second.entry.claim_id != token.claim_id) {
    return std::nullopt;
  }
  WrittenEntry written = std::move(found->second);
  entries_.erase(found);
  return written;
}

}  // namespace docket::firestore::detail
