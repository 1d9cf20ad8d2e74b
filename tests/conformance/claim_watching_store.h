// A test's view of a relay at work: an outbox store that passes every call on to a real
// one and records each claim (when, how many rows), so that a test can wait until the
// relay has claimed, and see how long it waited between claims. It hears the inner
// store's wake signal only when told to (kHears); deaf, it gives the relay a signal
// nothing notifies, as if every notification were lost.
//
// Thread-safety: as the inner store's; the record is guarded.
#ifndef DOCKET_TESTS_CONFORMANCE_CLAIM_WATCHING_STORE_H_
#define DOCKET_TESTS_CONFORMANCE_CLAIM_WATCHING_STORE_H_

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "docket/outbox/outbox_store.h"

namespace docket::conformance {

class ClaimWatchingStore final : public OutboxStore {
 public:
  enum Hearing { kDeaf, kHears };

  explicit ClaimWatchingStore(OutboxStore& inner, Hearing hearing = kDeaf)
      : inner_(inner), hearing_(hearing) {}

  // Waits until `count` claims (with rows or not) were made; false at the deadline.
  bool wait_for_claims(std::size_t count,
                       std::chrono::seconds deadline = std::chrono::seconds(60)) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, deadline, [&] { return claims_.size() >= count; });
  }
  // When each claim was made and how many rows it returned.
  std::vector<std::pair<std::chrono::steady_clock::time_point, std::size_t>> claims() {
    std::lock_guard lock(mutex_);
    return claims_;
  }

  std::shared_ptr<WakeSignal> staged_signal() override {
    return hearing_ == kHears ? inner_.staged_signal() : std::make_shared<WakeSignal>();
  }
  std::string_view provider_name() const noexcept override { return inner_.provider_name(); }
  StoreCapabilities capabilities() const noexcept override { return inner_.capabilities(); }
  TransactionType transaction_type() const noexcept override { return inner_.transaction_type(); }
  void migrate() override { inner_.migrate(); }
  std::unique_ptr<UnitOfWork> begin() override { return inner_.begin(); }
  void insert(HandlerTransaction& tx, const OutboxRecord& record) override {
    inner_.insert(tx, record);
  }
  std::vector<OutboxRecord> claim(std::string_view token, Timestamp now, Timestamp lease_until,
                                  std::size_t limit) override {
    auto rows = inner_.claim(token, now, lease_until, limit);
    {
      std::lock_guard lock(mutex_);
      claims_.emplace_back(std::chrono::steady_clock::now(), rows.size());
    }
    changed_.notify_all();
    return rows;
  }
  bool complete(std::string_view id, std::string_view token, Timestamp now) override {
    return inner_.complete(id, token, now);
  }
  std::size_t complete_all(std::span<const std::string> ids, std::string_view token,
                           Timestamp now) override {
    return inner_.complete_all(ids, token, now);
  }
  bool fail(std::string_view id, std::string_view token, const FailedAttempt& attempt) override {
    return inner_.fail(id, token, attempt);
  }
  std::vector<OutboxRecord> parked(std::int64_t after_sequence, std::size_t limit) override {
    return inner_.parked(after_sequence, limit);
  }
  bool replay(std::string_view id, Timestamp now) override { return inner_.replay(id, now); }
  bool skip(std::string_view id, Timestamp now) override { return inner_.skip(id, now); }
  bool cancel(std::string_view id, Timestamp now) override { return inner_.cancel(id, now); }
  std::size_t purge_parked_batch(Timestamp cutoff, std::size_t limit) override {
    return inner_.purge_parked_batch(cutoff, limit);
  }
  std::size_t purge_done_batch(Timestamp cutoff, std::size_t limit) override {
    return inner_.purge_done_batch(cutoff, limit);
  }
  std::vector<OutboxRecord> read_feed(std::int64_t after_sequence, std::size_t limit) override {
    return inner_.read_feed(after_sequence, limit);
  }
  std::optional<OutboxRecord> find(std::string_view id) override { return inner_.find(id); }

 private:
  OutboxStore& inner_;
  const Hearing hearing_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<std::pair<std::chrono::steady_clock::time_point, std::size_t>> claims_;
};

}  // namespace docket::conformance

#endif  // DOCKET_TESTS_CONFORMANCE_CLAIM_WATCHING_STORE_H_
