// ClaimWrites: what a Cosmos DB claim inbox store's own writes left on its entries while
// they are claimed, by claim: the entry as written and the etag the write returned, so
// that the claim's mark, release, failure or renewal replaces the entry under that etag
// directly instead of reading it again first (cosmos_claim_inbox_store.h). Per store
// object, in this process only; a claim it does not hold (forgotten, or made by another
// store object or process) costs the read it always did.
//
// Invariants: at most kCapacity claims are remembered, the oldest remembered forgotten
// first; a remembered entry is exactly the item some write of this store created or
// replaced with the remembered etag, so a replace under that etag applies only where no
// writer has changed the entry since (else the service answers 412 and the caller reads
// the entry and decides as it would have).
//
// Thread-safety: every member may be called from many threads at once (one mutex).
#ifndef DOCKET_PROVIDERS_COSMOS_COSMOS_CLAIM_WRITES_H_
#define DOCKET_PROVIDERS_COSMOS_COSMOS_CLAIM_WRITES_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "docket/inbox/claim_inbox_store.h"

namespace docket::cosmos::detail {

class ClaimWrites {
 public:
  // Enough for every claim a busy process holds at once; a claim held longer than the
  // next 16,384 claims take to be made just costs one read more.
  static constexpr std::size_t kCapacity = 16'384;

  struct Written {
    ClaimEntry entry;
    std::string etag;
  };

  // Remembers that `token`'s claim wrote `entry` as item `id`, whose etag is now `etag`
  // (replacing what was remembered for it).
  void remember(std::string_view id, const ClaimToken& token, ClaimEntry entry, std::string etag) {
    const std::lock_guard lock(mutex_);
    std::string key = key_of(id, token);
    if (const auto found = by_key_.find(key); found != by_key_.end()) {
      by_age_.erase(found->second.age);
      by_key_.erase(found);
    }
    while (by_key_.size() >= kCapacity && !by_age_.empty()) {
      by_key_.erase(by_age_.begin()->second);
      by_age_.erase(by_age_.begin());
    }
    const std::uint64_t age = next_age_++;
    by_age_.emplace(age, key);
    by_key_.emplace(std::move(key),
                    Slot{.written = {std::move(entry), std::move(etag)}, .age = age});
  }

  // What `token`'s claim last wrote as item `id`, forgetting it (the caller's write either
  // ends the claim or is remembered again); nullopt when not remembered.
  std::optional<Written> take(std::string_view id, const ClaimToken& token) {
    const std::lock_guard lock(mutex_);
    const auto found = by_key_.find(key_of(id, token));
    if (found == by_key_.end()) {
      return std::nullopt;
    }
    Written written = std::move(found->second.written);
    by_age_.erase(found->second.age);
    by_key_.erase(found);
    return written;
  }

 private:
  struct Slot {
    Written written;
    std::uint64_t age = 0;
  };

  // The item id, the owner and the claim id, each prefixed with its length, so that no
  // two different claims share a key whatever bytes their terms hold.
  static std::string key_of(std::string_view id, const ClaimToken& token) {
    std::string key;
    for (const std::string_view term :
         {id, std::string_view(token.owner), std::string_view(token.claim_id)}) {
      key += std::to_string(term.size());
      key += ':';
      key += term;
    }
    return key;
  }

  std::mutex mutex_;
  std::map<std::string, Slot, std::less<>> by_key_;
  std::map<std::uint64_t, std::string> by_age_;  // oldest first
  std::uint64_t next_age_ = 0;
};

}  // namespace docket::cosmos::detail

#endif  // DOCKET_PROVIDERS_COSMOS_COSMOS_CLAIM_WRITES_H_
