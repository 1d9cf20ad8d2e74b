// The claim inbox SPI: an entry per (tenant, message id, handler type) that a handler
// claims with a lease before it runs and marks processed after, for handlers whose
// effects cannot commit with a dedup record (effects outside the database, stores
// without interactive transactions, batches over a store's commit limit).
//
// An entry moves through:
//
//   (absent) --try_claim--> processing --mark_processed--> processed
//                               |  ^ \--mark_failed--> failed --try_claim--> processing
//                               |  |
//                       release |  | try_claim (received, failed, or lease expired)
//                               v  |
//                             received
//
// Every claim gets a token of its own (ClaimToken: the owner and a claim id, unique to
// that claim), its fencing token: marks, releases and renewals present it, and an
// entry changes only for its current claim's token. Two claims by one owner (two
// threads of one runner, the second after the first's lease ran out) are told apart.
//
// Invariants every provider keeps (tests/conformance/claim checks them):
//  - try_claim is atomic: of many concurrent claimers of one entry exactly one gets
//    kClaimed while its lease lasts; a processing entry whose lease ended (lease_until
//    <= now) is claimable again, and not before;
//  - mark_processed, release, mark_failed and renew change an entry only while the
//    token's claim is still its current one (status processing, same owner, same claim
//    id), whether or not the lease has run out: a claimer superseded after its lease
//    gets false (renew: nullopt) and changes nothing;
//  - retry_count counts mark_failed calls and survives every later claim and release;
//  - retry_now changes only a failed entry, and only its next_attempt_at and updated_at
//    (to now, the clock failed_due compares with);
//  - try_mark_processed is first writer wins: it turns an entry that is absent or not
//    yet processed into processed and returns true; on a processed entry it returns
//    false and changes nothing;
//  - cleanup deletes only processed entries whose processed_at is strictly before the
//    cutoff (an entry processed exactly at the cutoff is kept), at most `batch_size`
//    per request, and never an entry in any other status.
// Times (leases, processed-at, received-at) come from the store's clock; leases from
// the clock StoreCapabilities::lease_clock names (docket/core/clock.h says when a store
// follows the Clock it was opened with instead).
//
// Thread-safety: a ClaimInboxStore may be used from many threads (and, where the
// provider is shared, many processes) at once.
#ifndef DOCKET_INBOX_CLAIM_INBOX_STORE_H_
#define DOCKET_INBOX_CLAIM_INBOX_STORE_H_

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "docket/core/clock.h"
#include "docket/core/store_capabilities.h"
#include "docket/inbox/claim_key.h"

namespace docket {

enum class ClaimStatus : std::uint8_t { kReceived, kProcessing, kProcessed, kFailed };

// "received", "processing", "processed", "failed".
std::string_view to_string(ClaimStatus status) noexcept;
// The inverse of to_string(); nullopt for any other text.
std::optional<ClaimStatus> parse_claim_status(std::string_view text) noexcept;

// One entry as stored.
struct ClaimEntry {
  explicit ClaimEntry(ClaimKey entry_key) : key(std::move(entry_key)) {}

  ClaimKey key;
  ClaimStatus status = ClaimStatus::kReceived;
  std::uint32_t retry_count = 0;               // mark_failed calls so far
  Timestamp received_at{};                     // when the entry was first written
  Timestamp updated_at{};                      // its latest change
  std::optional<std::string> owner{};          // processing: the claim's owner
  std::optional<std::string> claim_id{};       // processing: the claim's id (ClaimToken)
  std::optional<Timestamp> lease_until{};      // processing: the lease's end
  std::optional<Timestamp> processed_at{};     // processed: when
  std::optional<std::string> last_error{};     // the latest failure's error text
  std::optional<Timestamp> next_attempt_at{};  // failed: not due for retry before

  friend bool operator==(const ClaimEntry&, const ClaimEntry&) = default;
};

enum class ClaimOutcome {
  kClaimed,           // the caller holds the entry until lease_until
  kAlreadyProcessed,  // nothing to do: the message was handled
  kHeldByAnother,     // another owner's lease is live until lease_until
};

// "claimed", "already_processed", "held_by_another".
std::string_view to_string(ClaimOutcome outcome) noexcept;

// What a claim's holder presents to mark, release or renew it: the owner that claimed
// and the id try_claim gave that claim (a UUIDv7, unique to it; not ordered between
// processes). A copy held by anyone else is worth nothing once the entry is claimed
// again.
struct ClaimToken {
  std::string owner;
  std::string claim_id;

  friend bool operator==(const ClaimToken&, const ClaimToken&) = default;
};

struct ClaimResult {
  ClaimOutcome outcome = ClaimOutcome::kClaimed;
  std::uint32_t retry_count = 0;           // the entry's failures so far
  std::optional<Timestamp> lease_until{};  // kClaimed: ours; kHeldByAnother: theirs
  ClaimToken token{};                      // kClaimed: this claim's; otherwise empty
};

// What mark_failed records.
struct ClaimFailure {
  std::string error;          // the handler's error text (valid UTF-8)
  Timestamp next_attempt_at;  // not due for retry before this
};

// Entries by status, for one tenant or all.
struct ClaimCounts {
  std::uint64_t received = 0;
  std::uint64_t processing = 0;
  std::uint64_t processed = 0;
  std::uint64_t failed = 0;
  // The earliest received_at among entries not processed; nullopt when there is none.
  std::optional<Timestamp> oldest_pending{};
  // Failed entries whose next_attempt_at <= now.
  std::uint64_t failed_due = 0;

  friend bool operator==(const ClaimCounts&, const ClaimCounts&) = default;
};

// One page of entries in the provider's key order.
struct ClaimPageRequest {
  std::optional<TenantId> tenant{};     // nullopt: every tenant
  std::optional<ClaimStatus> status{};  // nullopt: every status
  std::optional<ClaimKey> after{};      // the previous page's `next`; nullopt: first page
  std::size_t limit = 100;              // 1..kMaxClaimPageSize
};
struct ClaimPage {
  std::vector<ClaimEntry> entries{};
  std::optional<ClaimKey> next{};  // pass as `after` for the following page; nullopt: done
};

inline constexpr std::size_t kMaxClaimPageSize = 10'000;
// Longest owner token and error text accepted, in bytes.
inline constexpr std::size_t kMaxClaimOwnerBytes = 200;
inline constexpr std::size_t kMaxClaimErrorBytes = 16 * 1024;
// Longest lease accepted.
inline constexpr std::chrono::hours kMaxClaimLease{24 * 7};
// Most entries one try_claim_batch or mark_processed_batch takes (DynamoDB's limit on
// one transaction's actions).
inline constexpr std::size_t kMaxClaimBatch = 100;

class ClaimInboxStore {
 public:
  virtual ~ClaimInboxStore() = default;

  // The provider's name: "memory", "sqlite", ...
  virtual std::string_view provider_name() const noexcept = 0;
  // What this store can do; see docket/core/store_capabilities.h.
  virtual StoreCapabilities capabilities() const noexcept = 0;
  // Creates or upgrades the schema. Idempotent; also done on first use.
  virtual void migrate() = 0;

  // Claims the entry for `owner` until now + `lease`: an absent, received or failed
  // entry, or a processing one whose lease ended, becomes processing under a new
  // claim id, returned in the result's token. Throws InvalidInputError for an owner
  // that is empty, not UTF-8 or over kMaxClaimOwnerBytes, or a lease outside
  // (0, kMaxClaimLease].
  ClaimResult try_claim(const ClaimKey& key, std::string_view owner,
                        std::chrono::microseconds lease);

  // processing (under `token`'s claim) -> processed at now. False when the token's
  // claim is not the entry's current one (never claimed, released, superseded, or
  // already marked). Throws InvalidInputError for a token with an empty owner or
  // claim id (nothing is written).
  bool mark_processed(const ClaimKey& key, const ClaimToken& token);

  // processing (under `token`'s claim) -> received, lease cleared, retry count kept.
  bool release(const ClaimKey& key, const ClaimToken& token);

  // processing (under `token`'s claim) -> failed: retry count + 1, the error kept, not
  // due for retry before failure.next_attempt_at (a redelivery may claim a failed
  // entry before that: the time is for failed_due's retries). Throws
  // InvalidInputError for an error text that is not UTF-8 or over kMaxClaimErrorBytes
  // (nothing is written).
  bool mark_failed(const ClaimKey& key, const ClaimToken& token, const ClaimFailure& failure);

  // Extends the token's claim to now + `lease` for a handler still running; returns
  // the new lease end, or nullopt when the claim is no longer the entry's current one
  // (its lease ran out and another claimer took it: stop, the work is theirs). A
  // lease that ran out with nobody claiming since is renewed. Throws
  // InvalidInputError for a lease outside (0, kMaxClaimLease].
  std::optional<Timestamp> renew(const ClaimKey& key, const ClaimToken& token,
                                 std::chrono::microseconds lease);

  // First writer wins: see the invariants above.
  bool try_mark_processed(const ClaimKey& key);

  // A failed entry becomes due for a retry now: next_attempt_at and updated_at = now
  // (the clock failed_due compares with), its retry count and last error kept. False,
  // changing nothing, for an entry that is absent or not failed. The claim inbox does
  // not hold the message: this makes the entry due for whatever retries failed entries
  // (failed_due's reader, e.g. a runner's retry loop); it redelivers nothing itself.
  bool retry_now(const ClaimKey& key);

  // try_claim of each entry of `keys` for `owner`, in as few requests as the store
  // allows (where every entry is new: one request on DynamoDB, Firestore and
  // PostgreSQL, one transaction on SQLite); the results are in the order of `keys`.
  // Each entry is claimed on its own terms: one entry's refusal holds back no other's
  // claim, and every invariant of try_claim holds per entry. For a consumer handed a
  // batch of messages at once (an SQS receive): all of the batch's handlers must finish
  // within the lease. An empty batch sends nothing. Throws InvalidInputError, claiming
  // nothing, for more than kMaxClaimBatch keys, a key named twice, or what try_claim
  // refuses (owner, lease).
  std::vector<ClaimResult> try_claim_batch(std::span<const ClaimKey> keys, std::string_view owner,
                                           std::chrono::microseconds lease);

  // mark_processed of each entry of `keys` under the token at the same index of
  // `tokens`, in as few requests as the store allows; true where the entry was marked,
  // in the order of `keys`. An entry whose token's claim is not current gets false and
  // holds back no other's mark. Throws InvalidInputError, marking nothing, for the
  // batches try_claim_batch refuses or spans of different sizes.
  std::vector<bool> mark_processed_batch(std::span<const ClaimKey> keys,
                                         std::span<const ClaimToken> tokens);

  // The entry, or nullopt.
  std::optional<ClaimEntry> find(const ClaimKey& key);

  // Failed entries of every tenant that are due (next_attempt_at <= now) and have
  // failed fewer than `max_retries` times, earliest due first, at most `limit`.
  std::vector<ClaimEntry> failed_due(std::uint32_t max_retries, std::size_t limit);

  // Entries by status, for `tenant` or (nullopt) every tenant.
  ClaimCounts counts(const std::optional<TenantId>& tenant);

  // One page of entries. Throws InvalidInputError for a limit outside
  // [1, kMaxClaimPageSize].
  ClaimPage entries(const ClaimPageRequest& request);

  // Called after each cleanup request with the running total removed.
  using CleanupProgress = std::function<void(std::uint64_t removed_so_far)>;

  // Deletes `tenant`'s processed entries with processed_at < cutoff, at most
  // `batch_size` per request, until none is left; returns how many. Throws
  // InvalidInputError for a batch size outside [1, max_writes_per_commit] (or
  // [1, 100000] where the store has no limit).
  std::uint64_t cleanup_processed(const TenantId& tenant, Timestamp cutoff,
                                  std::size_t batch_size = 1000,
                                  const CleanupProgress& progress = {});
  // The same for every tenant.
  std::uint64_t cleanup_all_tenants_processed(Timestamp cutoff, std::size_t batch_size = 1000,
                                              const CleanupProgress& progress = {});
  // How many entries cleanup would delete, deleting nothing (for --dry-run).
  std::uint64_t count_cleanable(const std::optional<TenantId>& tenant, Timestamp cutoff);

 protected:
  ClaimInboxStore() = default;

  // The operations above, their arguments validated; `now` from the store's clock.
  // do_try_claim writes `token` (the claimer's owner and a fresh claim id) on the
  // entry it claims; the front end puts it in a kClaimed result.
  virtual ClaimResult do_try_claim(const ClaimKey& key, const ClaimToken& token,
                                   std::chrono::microseconds lease) = 0;
  virtual bool do_mark_processed(const ClaimKey& key, const ClaimToken& token) = 0;
  virtual bool do_release(const ClaimKey& key, const ClaimToken& token) = 0;
  virtual bool do_mark_failed(const ClaimKey& key, const ClaimToken& token,
                              const ClaimFailure& failure) = 0;
  virtual std::optional<Timestamp> do_renew(const ClaimKey& key, const ClaimToken& token,
                                            std::chrono::microseconds lease) = 0;
  virtual bool do_try_mark_processed(const ClaimKey& key) = 0;
  // One conditional change (status failed) on the store's failed_due clock.
  virtual bool do_retry_now(const ClaimKey& key) = 0;
  // The batches, checked (distinct keys, at most kMaxClaimBatch, at least one; one
  // token per key, a fresh claim id each for a claim). By default one do_try_claim or
  // do_mark_processed per key, in order; a store that can send a batch in fewer
  // requests overrides them.
  virtual std::vector<ClaimResult> do_try_claim_batch(std::span<const ClaimKey> keys,
                                                      std::span<const ClaimToken> tokens,
                                                      std::chrono::microseconds lease);
  virtual std::vector<bool> do_mark_processed_batch(std::span<const ClaimKey> keys,
                                                    std::span<const ClaimToken> tokens);
  virtual std::optional<ClaimEntry> do_find(const ClaimKey& key) = 0;
  virtual std::vector<ClaimEntry> do_failed_due(std::uint32_t max_retries, std::size_t limit) = 0;
  virtual ClaimCounts do_counts(const std::optional<TenantId>& tenant) = 0;
  virtual ClaimPage do_entries(const ClaimPageRequest& request) = 0;
  // Deletes at most `limit` processed entries with processed_at < cutoff (of `tenant`,
  // or of every tenant when nullptr) in one request; returns how many.
  virtual std::size_t do_cleanup_batch(const TenantId* tenant, Timestamp cutoff,
                                       std::size_t limit) = 0;
  virtual std::uint64_t do_count_cleanable(const std::optional<TenantId>& tenant,
                                           Timestamp cutoff) = 0;

 private:
  std::uint64_t cleanup_in_batches(const TenantId* tenant, Timestamp cutoff, std::size_t batch_size,
                                   const CleanupProgress& progress);
};

}  // namespace docket

#endif  // DOCKET_INBOX_CLAIM_INBOX_STORE_H_
