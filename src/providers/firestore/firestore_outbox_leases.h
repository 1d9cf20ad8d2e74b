// The leases a Firestore outbox store wrote and has not yet ended, each with the update
// time Firestore gave the lease's write, and the writes made under them: a claim's leases
// in one batchWrite (each applied or refused on its own, so a message another relay took
// costs no other its lease), and a batch of completions in one batchWrite, each
// conditioned on its own lease's update time.
//
// Invariant: a completion written under a remembered update time applies only while the
// message's document is exactly as this store's lease wrote it, so while `token` still
// holds the lease (kit::held_by: pending and leased to the token); any later write (a
// lease taken over by another relay after this one ran out, a recorded failure) changes
// the update time and refuses it. A remembered lease is handed out only to its own token
// and is forgotten as it is (a newer lease of the same message by this store replaces
// it), so a stale token never marks through the current lease. A message whose lease is
// not remembered (claimed by another store object, or past kCapacity) or whose
// conditioned completion was refused is left to the caller, which reads it and decides
// by kit::held_by (a refusal for contention alone must not lose a completion).
//
// Bounded: at most kCapacity leases; at capacity the leases that ended by the new claim's
// `now` are dropped first (a relay never completing them, e.g. one that crashed), then a
// new lease is not remembered. Ending a lease (complete, fail) forgets it.
//
// Thread-safety: every member may be called from many threads at once.
#ifndef DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_OUTBOX_LEASES_H_
#define DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_OUTBOX_LEASES_H_

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "docket/core/clock.h"
#include "providers/firestore/firestore_client.h"
#include "providers/firestore/firestore_documents.h"

namespace docket::firestore::detail {

class OutboxLeases {
 public:
  static constexpr std::size_t kCapacity = 16384;

  // Writes `leases` (each the lease of message `leases[i].id` to `token` until
  // `lease_until`, under the update time its read saw) in batchWrites of at most
  // kMaxWritesPerCommit (one for a claim of up to 500), remembering each applied one's
  // update time. Returns, per lease, whether it applied.
  std::vector<bool> lease_each(const Client& client, std::span<const Write> leases,
                               std::string_view token, Timestamp now, Timestamp lease_until,
                               std::string_view target);

  // Marks done at `now` each of `ids` whose lease by `token` this store remembers, in
  // batchWrites of at most kMaxWritesPerCommit (one for up to 500), each conditioned on
  // its lease's update time. Returns how many it marked; appends to `unresolved` the ids
  // it did not mark (not remembered, or refused), which the caller decides by reading.
  std::size_t complete_each(const Client& client, std::string_view collection,
                            std::span<const std::string> ids, std::string_view token, Timestamp now,
                            std::string_view target, std::vector<std::string>& unresolved);

  // Forgets message `id`'s lease when it is `token`'s (its lease ended some other way).
  void forget(std::string_view id, std::string_view token);

  std::size_t size();

 private:
  struct Lease {
    std::string token;
    std::string update_time;     // of the lease's write
    std::int64_t lease_until{};  // Unix microseconds
  };

  void remember(const std::string& id, Lease lease, std::int64_t now_micros);
  // Message `id`'s lease update time when `token` holds it, forgotten as it is handed out.
  std::optional<std::string> take(const std::string& id, std::string_view token);

  std::mutex mutex_;
  std::unordered_map<std::string, Lease> leases_;  // by message id; guarded by mutex_
};

}  // namespace docket::firestore::detail

#endif  // DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_OUTBOX_LEASES_H_
