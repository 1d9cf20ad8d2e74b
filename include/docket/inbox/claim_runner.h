// Runs one handler per message through the claim inbox (docket/inbox/claim_inbox_store.h):
// claim the entry, run the handler, mark it processed; when the handler throws, mark
// the entry failed with the next attempt after capped exponential backoff with
// jitter (docket/core/retry_schedule.h), and rethrow the handler's own exception unchanged.
// The next attempt is when failed_due() offers the entry for a retry, not a lock: a
// redelivery of the message may claim a failed entry before it, by design.
//
// The claim inbox does not make the handler's effects atomic with the entry: a
// handler that crashes after its effects and before mark_processed runs again after
// the lease. Use it for effects that are idempotent or outside the database, and the
// transactional inbox (docket/inbox/inbox_dispatcher.h) where effects can join the commit.
//
//   ClaimRunner runner(*store, ClaimRunnerOptions("billing.SendInvoiceEmail"));
//   switch (runner.run(envelope.message_id, [&] { mailer.send(invoice); })) { ... }
//
// A failure to mark (the store unreachable after the handler ran) never hides the
// handler's error: when the handler threw, its exception is rethrown and the marking
// failure goes to on_mark_error; when the handler succeeded, the marking failure is
// thrown (the entry stays claimed and is retried after its lease).
//
// Every claim the runner takes has its own token (docket/inbox/claim_inbox_store.h), so
// that two of its threads handling one message (the second after the first's lease ran
// out) cannot mark each other's claim: the one taken over is told kSuperseded, and its
// failure changes nothing.
//
// Leases and clocks. The lease must outlast the handler, or the handler must have its
// lease renewed while it runs (ClaimRunnerSettings::renew_up_to). On a store whose
// leases are on each claimer's clock (StoreCapabilities::lease_clock is
// LeaseClock::kClaimer: DynamoDB, Firestore), a claimer whose clock runs ahead by S
// takes over a lease S early, so the lease must also exceed the worst skew between
// claimers' clocks (max_clock_skew, checked when the runner is built).
//
// Thread-safety: run() and run_batch() may be called from many threads at once; the
// store must outlive the runner.
#ifndef DOCKET_INBOX_CLAIM_RUNNER_H_
#define DOCKET_INBOX_CLAIM_RUNNER_H_

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "docket/core/clock.h"
#include "docket/core/observer.h"
#include "docket/core/retry_schedule.h"
#include "docket/inbox/claim_inbox_store.h"

namespace docket {
namespace inbox {
class LeaseKeeper;
}  // namespace inbox

struct ClaimRunnerSettings {
  std::chrono::microseconds lease{std::chrono::seconds(30)};  // must outlast the handler
  std::chrono::microseconds backoff_base{std::chrono::seconds(1)};
  std::chrono::microseconds backoff_cap{std::chrono::minutes(10)};
  double jitter = 0.2;  // in [0, 1]
  // Names this runner's claims; empty: a fresh UUIDv7 per runner.
  std::string owner{};
  // Keeps a running handler's lease renewed every third of the lease, for up to this
  // long after its claim in all (so that a handler that hangs does not hold its entry
  // for ever); 0: never renewed, the handler must finish within the lease. At most
  // kMaxClaimLease.
  std::chrono::microseconds renew_up_to{0};
  // The worst skew between claimers' clocks to allow for, where the store's leases
  // are on the claimer's clock: the lease must exceed it. Ignored where leases are on
  // the store's clock. At most kMaxClaimLease.
  std::chrono::microseconds max_clock_skew{std::chrono::seconds(1)};
  // Receives a failure to mark an entry failed after the handler threw (the handler's
  // exception is what run() throws). Empty: the failure is dropped after the entry's
  // lease makes it claimable again, which is how it is then retried.
  std::function<void(const ClaimKey&, const std::exception&)> on_mark_error{};
  // Hears every claim transition this runner makes or meets (docket/core/observer.h:
  // claimed, processed, failed, superseded, already_processed, held_by_another), with
  // the handler's time. Null: nothing is measured.
  std::shared_ptr<Observer> observer{};
};

class ClaimRunnerOptions {
 public:
  // Throws ConfigurationError naming the setting: a handler type that is blank, not
  // UTF-8 or over kMaxHandlerTypeBytes; a lease outside (0, kMaxClaimLease]; an owner
  // over kMaxClaimOwnerBytes or not UTF-8; a renew_up_to or max_clock_skew outside
  // [0, kMaxClaimLease]; or the backoff refusals of RetrySchedule.
  explicit ClaimRunnerOptions(std::string_view handler_type, ClaimRunnerSettings settings = {});

  const std::string& handler_type() const noexcept { return handler_type_; }
  const ClaimRunnerSettings& settings() const noexcept { return settings_; }
  const RetrySchedule& retry_schedule() const noexcept { return schedule_; }

 private:
  std::string handler_type_;
  ClaimRunnerSettings settings_;
  RetrySchedule schedule_;
};

enum class ClaimRunOutcome {
  kProcessed,         // the handler ran and the entry is processed
  kAlreadyProcessed,  // the handler did not run: the message was handled before
  kHeldByAnother,     // the handler did not run: another claim holds the entry
  kSuperseded,        // the handler ran, but its lease ran out and another claim
                      // (another worker's, or another thread's of this runner) took
                      // the entry over before it was marked: it may run twice
  kFailed,            // run_batch only: the handler threw, and the entry is marked
                      // failed for a retry after backoff (run() rethrows instead)
};

// "processed", "already_processed", "held_by_another", "superseded", "failed".
std::string_view to_string(ClaimRunOutcome outcome) noexcept;

// What run_batch did with one message of its batch.
struct ClaimBatchRun {
  ClaimRunOutcome outcome = ClaimRunOutcome::kProcessed;
  std::exception_ptr error{};  // kFailed: what the handler threw
};

class ClaimRunner {
 public:
  // `clock` times the next attempt after a failure (use the store's clock); it must
  // outlive the runner. Throws ConfigurationError when the store's leases are on the
  // claimer's clock and the lease does not exceed max_clock_skew.
  ClaimRunner(ClaimInboxStore& store, ClaimRunnerOptions options,
              const Clock& clock = SystemClock::instance());
  ~ClaimRunner();
  ClaimRunner(ClaimRunner&&) noexcept;
  ClaimRunner& operator=(ClaimRunner&&) = delete;

  // Runs `handler` for the message under the ambient tenant (TenantScope). Throws
  // InvalidInputError for a bad message id (nothing claimed), whatever the handler
  // threw (after marking the entry failed), or InboxStoreError when the store failed to
  // claim the entry or to mark it processed (inbox_errors.h).
  ClaimRunOutcome run(std::string_view message_id, const std::function<void()>& handler) const;

  // The same for an explicit key (whose handler type need not be the options' one).
  ClaimRunOutcome run(const ClaimKey& key, const std::function<void()>& handler) const;

  // A batch of messages received together (an SQS receive), under the ambient tenant:
  // claims them all with one try_claim_batch, calls `handler` with the index in
  // `message_ids` of each message claimed, in order, then marks the ones whose handler
  // returned with one mark_processed_batch. A handler that throws has its entry marked
  // failed with backoff (a failure to mark it goes to on_mark_error) and the batch goes
  // on; its exception is in its ClaimBatchRun. Results are in the order of
  // `message_ids`. Before a message's handler starts, its claim is renewed when half
  // its lease has passed (kHeldByAnother, not run, when it was taken over meanwhile);
  // with renew_up_to, every claim of the batch is kept renewed until the batch's mark.
  // Otherwise the lease must outlast the whole batch: an entry whose lease ran out
  // before the batch's mark may be taken over (kSuperseded). Throws
  // InvalidInputError for a bad message id or a batch try_claim_batch refuses (nothing
  // claimed), or the store's errors (a failed final mark leaves the batch's processed
  // entries claimed, to be retried after the lease).
  std::vector<ClaimBatchRun> run_batch(std::span<const std::string_view> message_ids,
                                       const std::function<void(std::size_t index)>& handler) const;

  // The same for explicit keys.
  std::vector<ClaimBatchRun> run_batch(std::span<const ClaimKey> keys,
                                       const std::function<void(std::size_t index)>& handler) const;

  const std::string& owner() const noexcept { return owner_; }

 private:
  // Marks the entry failed after its handler threw `error`; a failure to mark goes to
  // on_mark_error.
  void mark_failed(const ClaimKey& key, const ClaimResult& claim,
                   const std::exception_ptr& error) const;
  // Tells the observer, if any, of `transition` of `key`.
  void observe(const ClaimKey& key, ClaimTransition transition,
               std::chrono::nanoseconds handler_time = {}) const noexcept;

  ClaimInboxStore& store_;
  ClaimRunnerOptions options_;
  const Clock& clock_;
  std::string owner_;
  // Renews running handlers' leases (renew_up_to); null when they are not renewed.
  std::unique_ptr<inbox::LeaseKeeper> keeper_;
};

}  // namespace docket

#endif  // DOCKET_INBOX_CLAIM_RUNNER_H_
