// Keeps the leases of running handlers' claims renewed (ClaimInboxStore::renew), for a
// ClaimRunner whose handlers may outlast one lease: each kept claim is renewed every
// third of the lease, on one thread per keeper, until its handler ends or `keep_for`
// has passed since the claim (a handler that hangs must not hold its entry for ever).
//
//   LeaseKeeper keeper(store, lease, std::chrono::minutes(10));
//   {
//     const LeaseKeeper::Kept kept = keeper.keep(key, claim.token);
//     handler();
//   }  // no longer renewed
//
// A renewal that answers nullopt means the claim was taken over (its lease ran out
// before a renewal landed): the keeper stops renewing it, and the handler's mark will
// answer superseded. A renewal that throws (the store unreachable) is tried again a
// tenth of the lease later, as long as the lease may still be live.
//
// Times are this process's steady clock: a renewal is due a third of the lease after
// the previous one was sent, which is no later than a third after it landed, whatever
// the clocks of the store and of other claimers say.
//
// Internal to docket. Thread-safety: keep() and Kept's destruction from any thread;
// the store must outlive the keeper, and the keeper every Kept.
#ifndef DOCKET_INBOX_LEASE_KEEPER_H_
#define DOCKET_INBOX_LEASE_KEEPER_H_

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <thread>

#include "docket/inbox/claim_inbox_store.h"

namespace docket::inbox {

class LeaseKeeper {
 public:
  using SteadyClock = std::chrono::steady_clock;

  LeaseKeeper(ClaimInboxStore& store, std::chrono::microseconds lease,
              std::chrono::microseconds keep_for);
  ~LeaseKeeper();
  LeaseKeeper(const LeaseKeeper&) = delete;
  LeaseKeeper& operator=(const LeaseKeeper&) = delete;

  // A claim kept renewed while it lives.
  class Kept {
   public:
    Kept() = default;
    Kept(Kept&& other) noexcept;
    Kept& operator=(Kept&&) = delete;
    ~Kept();

   private:
    friend class LeaseKeeper;
    Kept(LeaseKeeper* keeper, std::uint64_t id) : keeper_(keeper), id_(id) {}
    LeaseKeeper* keeper_ = nullptr;
    std::uint64_t id_ = 0;
  };

  // Starts renewing `token`'s claim of `key`, claimed at `claimed_at` (taken before the
  // claim was sent).
  [[nodiscard]] Kept keep(const ClaimKey& key, const ClaimToken& token,
                          SteadyClock::time_point claimed_at);

 private:
  struct Item {
    ClaimKey key;
    ClaimToken token;
    SteadyClock::time_point next;   // the next renewal is due
    SteadyClock::time_point until;  // no renewal after this (claimed_at + keep_for)
  };

  void forget(std::uint64_t id);
  void renew_due();

  ClaimInboxStore& store_;
  const std::chrono::microseconds lease_;
  const std::chrono::microseconds keep_for_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::map<std::uint64_t, Item> items_;  // guarded by mutex_
  std::uint64_t next_id_ = 0;            // guarded by mutex_
  bool stopping_ = false;                // guarded by mutex_
  std::thread thread_;                   // started by the first keep()
};

}  // namespace docket::inbox

#endif  // DOCKET_INBOX_LEASE_KEEPER_H_
