// The leases a Cosmos DB outbox store wrote and has not yet ended, each with the etag
// the lease's write left on the message and the message as leased, and the writes made
// under them: a claim's leases of one partition in one transactional batch, and a batch
// of completions of one partition in one transactional batch, each operation a replace
// under its own lease's etag. (The outbox's messages live in the partition of the unit
// that staged them, cosmos_outbox_item.h, and a batch holds one partition.)
//
// A Cosmos DB transactional batch is all or nothing: one message another relay took (its
// operation answered 412) fails the whole batch. So a failed batch is sent again without
// that message, at most three times in all; where it fails each time, the rest are not
// leased now (the claim selects past them; they stay pending for the next claim, as when
// two relays read the same page and one took it all) or go back to the caller
// (completions, which it decides by reading). Contention costs at most two requests more
// a batch, and never costs a message its completion.
//
// Invariant: a completion written under a remembered etag applies only while the message
// is exactly as this store's lease wrote it, so while `token` still holds the lease
// (kit::held_by); any later write (a lease another relay took after this one ran out, a
// recorded failure) changes the etag and refuses it. A remembered lease is handed out only
// to its own token and forgotten as it is (a newer lease of the same message by this
// store replaces it), so a stale token never marks through the current lease. A message
// whose lease is not remembered (claimed by another store object, or not kept) or whose
// conditioned completion was refused is left to the caller, which reads it and decides
// by kit::held_by (a refusal for contention alone must not lose a completion).
//
// Bounded: at most kCapacity leases holding about kMaxRememberedBytes in all, and only of
// messages whose payload is at most kMaxRememberedPayload bytes; at capacity the leases that
// ended by the new claim's `now` are dropped first (a relay that never completes them,
// e.g. one that crashed), then a new lease is not remembered. Ending a lease (complete,
// fail) forgets it.
//
// Thread-safety: every member may be called from many threads at once.
#ifndef DOCKET_PROVIDERS_COSMOS_COSMOS_OUTBOX_LEASES_H_
#define DOCKET_PROVIDERS_COSMOS_COSMOS_OUTBOX_LEASES_H_

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
#include "docket/outbox/outbox_message.h"
#include "providers/cosmos/cosmos_outbox_messages.h"

namespace docket::cosmos::detail::outbox {

class OutboxLeases {
 public:
  static constexpr std::size_t kCapacity = 16384;
  static constexpr std::size_t kMaxRememberedPayload = 64 * 1024;
  static constexpr std::size_t kMaxRememberedBytes = 64 * 1024 * 1024;

  // Leases each of `candidates` (as read, with the etag the read saw) to `token` until
  // `lease_until`: per partition, batches of at most 100 (one for a claim's candidates of
  // one partition), remembering each applied lease's etag. Returns, per candidate, the
  // record as leased, or nullopt where another relay took it, it changed since read, or
  // its batch failed on others three times.
  std::vector<std::optional<OutboxRecord>> lease_each(const MessagePlace& place,
                                                      std::span<const FoundMessage> candidates,
                                                      std::string_view token, Timestamp now,
                                                      Timestamp lease_until);

  // Marks done at `now` each of `ids` whose lease by `token` this store remembers: per
  // partition, batches of at most 100, each replace under its lease's etag. Returns the
  // messages it marked, as marked; appends to `unresolved` the ids it did not mark (not
  // remembered, or refused), which the caller decides by reading.
  std::vector<FoundMessage> complete_each(const MessagePlace& place,
                                          std::span<const std::string> ids, std::string_view token,
                                          Timestamp now, std::vector<std::string>& unresolved);

  // Forgets message `id`'s lease when it is `token`'s (its lease ended some other way).
  void forget(std::string_view id, std::string_view token);

  std::size_t size();

 private:
  struct Lease {
    std::string token;
    FoundMessage message;        // as leased, with the lease write's etag
    std::int64_t lease_until{};  // Unix microseconds
    std::size_t bytes{};         // about what it holds (remembered_bytes)
  };

  void remember(FoundMessage leased, std::string_view token, std::int64_t lease_until,
                std::int64_t now_micros);
  // Message `id`'s lease when `token` holds it, forgotten as it is handed out.
  std::optional<FoundMessage> take(const std::string& id, std::string_view token);

  std::mutex mutex_;
  std::unordered_map<std::string, Lease> leases_;  // by message id; guarded by mutex_
  std::size_t bytes_ = 0;                          // the sum of leases_' bytes; guarded by mutex_
};

}  // namespace docket::cosmos::detail::outbox

#endif  // DOCKET_PROVIDERS_COSMOS_COSMOS_OUTBOX_LEASES_H_
