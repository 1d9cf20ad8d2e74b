// The claims a Firestore claim inbox store made and has not ended, each as the store
// wrote it: the entry and the update_time Firestore gave that write. Ending a claim
// (mark processed, release, mark failed) or renewing it then commits under that
// update_time without reading the entry first: the precondition holds only while the
// document is still the one written, so a remembered entry is never trusted beyond it.
// A claim ended by another store, or a lease taken over, makes that commit refused,
// and the store reads the entry as it would have without it. A claim is handed out
// only to its own token (owner and claim id), so a stale claim of the same owner
// neither uses nor drops the current claim's write.
//
// At most kCapacity claims are remembered (claims never ended, such as a crashed
// handler's, must not grow it without bound); past that, a claim is not remembered and
// its end reads the entry first.
//
// Thread-safety: every member may be called from many threads at once.
#ifndef DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_HELD_CLAIMS_H_
#define DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_HELD_CLAIMS_H_

#include <cstddef>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "docket/inbox/claim_inbox_store.h"

namespace docket::firestore::detail {

// An entry as a commit wrote it.
struct WrittenEntry {
  ClaimEntry entry;
  std::string update_time;  // the commit's, for a precondition
};

class HeldClaims {
 public:
  static constexpr std::size_t kCapacity = 4096;

  // Remembers `written` as entry `id`'s latest write (replacing an older one).
  void remember(const std::string& id, WrittenEntry written);
  // Entry `id`'s remembered write when it is the claim of `token` (the same owner and
  // claim id), forgotten as it is handed out; nullopt otherwise. A stale token's end
  // or renewal leaves the current claim's write remembered for its holder.
  std::optional<WrittenEntry> take(const std::string& id, const ClaimToken& token);

 private:
  std::mutex mutex_;
  std::unordered_map<std::string, WrittenEntry> entries_;  // guarded by mutex_
};

}  // namespace docket::firestore::detail

#endif  // DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_HELD_CLAIMS_H_
