// The consumer runner: takes deliveries from a subscription and hands each to the
// transactional inbox (an InboxDispatcher), or to a handler through the claim inbox (a
// ClaimRunner), under the message's tenant.
//
//   ConsumerRunner runner(transport, dispatcher,
//                         ConsumerRunnerOptions({.destination = "orders", .group = "billing"}));
//   std::jthread consuming([&](std::stop_token stop) { runner.run(stop); });
//
// For each delivery:
//  - the inbox commits (kProcessed) or finds it done (kSkippedDuplicate): then, and only
//    then, the delivery is acknowledged. A runner that dies between the commit and the
//    acknowledgement leaves the delivery unsettled; the transport delivers it again and
//    the inbox answers kSkippedDuplicate, so its effects happen once;
//  - the handler throws: the delivery is returned, to come again after the capped
//    backoff of its delivery count (docket/core/retry_schedule.h), or dead-lettered with
//    the handler's error once it was delivered max_deliveries times;
//  - the inbox's store fails (InboxStoreError: it could not begin, record or commit the
//    unit, or claim or mark the entry): the delivery is returned after backoff and the
//    delivery does not count toward max_deliveries, so an outage of the store never
//    dead-letters a message whose handler has not failed. The runner remembers how many
//    of a message's deliveries the store failed (for up to kRememberedStoreFailures
//    messages; a restarted runner starts again from the transport's count);
//  - at most `prefetch` deliveries are held at once (the subscription's prefetch).
// On stop, run() handles what it already holds (finish_on_stop) or returns it
// unhandled, then closes its subscription. Reconnecting is the transport's business; a
// TransportError it cannot retry propagates from run(), naming the broker, the
// destination and what to do.
//
// Thread-safety: one thread runs a runner (run() or run_once()); stats() may be read
// from any thread. Run several runners for parallel consumers. The transport and the
// dispatcher (or claim runner) must outlive the runner.
#ifndef DOCKET_TRANSPORTS_CONSUMER_RUNNER_H_
#define DOCKET_TRANSPORTS_CONSUMER_RUNNER_H_

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <stop_token>
#include <string>
#include <unordered_map>

#include "docket/core/retry_schedule.h"
#include "docket/inbox/claim_runner.h"
#include "docket/inbox/inbox_dispatcher.h"
#include "docket/transports/subscription.h"
#include "docket/transports/transport.h"

namespace docket {

struct ConsumerRunnerSettings {
  // A delivery whose handler failed on its max_deliveries-th delivery is dead-lettered.
  std::uint32_t max_deliveries = 5;
  // The wait before a failed delivery comes again: capped exponential in its delivery
  // count, with jitter (docket/core/retry_schedule.h).
  std::chrono::microseconds retry_base{std::chrono::milliseconds(100)};
  std::chrono::microseconds retry_cap{std::chrono::seconds(30)};
  double jitter = 0.2;
  std::chrono::milliseconds poll{100};  // the wait for a delivery before checking for stop
  bool finish_on_stop = true;           // on stop: handle what is held (or return it)
  // Called after a delivery's commit and before its acknowledgement (metrics, tests). If
  // it throws, the runner stops there as a crashed process would, the delivery
  // unsettled, and run()/run_once() rethrow.
  std::function<void(const Delivery&, DispatchOutcome)> on_committed{};
};

class ConsumerRunnerOptions {
 public:
  // Throws ConfigurationError naming the setting and its value for a prefetch or
  // max_deliveries of 0, a poll that is not positive, or a bad retry schedule.
  explicit ConsumerRunnerOptions(SubscriptionOptions subscription,
                                 ConsumerRunnerSettings settings = {});

  const SubscriptionOptions& subscription() const noexcept { return subscription_; }
  const ConsumerRunnerSettings& settings() const noexcept { return settings_; }
  const RetrySchedule& retry_schedule() const noexcept { return schedule_; }

 private:
  SubscriptionOptions subscription_;
  ConsumerRunnerSettings settings_;
  RetrySchedule schedule_;
};

struct ConsumerRunnerStats {
  std::uint64_t processed = 0;           // committed and acknowledged
  std::uint64_t skipped_duplicates = 0;  // found done and acknowledged
  std::uint64_t unhandled = 0;         // no handler for its type, marked processed (UnhandledTypes)
  std::uint64_t returned = 0;          // a handler threw; delivered again after backoff
  std::uint64_t store_failures = 0;    // the inbox's store failed; returned, not counted
  std::uint64_t dead_lettered = 0;     // a handler threw on the last allowed delivery
  std::uint64_t returned_on_stop = 0;  // held when stopped, returned unhandled
  std::uint64_t max_held = 0;          // most deliveries held at once
};

class ConsumerRunner {
 public:
  // How many messages' store-failed deliveries a runner remembers; past it, it forgets
  // them all, and those messages count every delivery again (never fewer).
  static constexpr std::size_t kRememberedStoreFailures = 65536;

  ConsumerRunner(Transport& transport, const InboxDispatcher& dispatcher,
                 ConsumerRunnerOptions options);

  // Runs `handler` for each delivery through the claim inbox (kAlreadyProcessed is a
  // duplicate; an entry another worker holds is returned for later).
  ConsumerRunner(Transport& transport, const ClaimRunner& claims,
                 std::function<void(const TransportMessage&)> handler,
                 ConsumerRunnerOptions options);

  ~ConsumerRunner();
  ConsumerRunner(const ConsumerRunner&) = delete;
  ConsumerRunner& operator=(const ConsumerRunner&) = delete;

  // One pass: waits up to `poll` for a delivery, takes what else is ready up to the
  // prefetch, and handles them in order. Returns how many it took. Subscribes on first
  // use; when `stop` was requested, closes the subscription at the end of the pass (what
  // it returned unhandled goes back to the transport), and the next pass subscribes again.
  std::size_t run_once(std::stop_token stop = {});

  // Passes until `stop`, then settles what it holds (finish_on_stop) and closes the
  // subscription.
  void run(std::stop_token stop);

  ConsumerRunnerStats stats() const;

 private:
  enum class Handled { kAcknowledged, kReturned, kDeadLettered };
  Handled handle(Subscription& subscription, const Delivery& delivery);
  Handled return_after_store_failure(Subscription& subscription, const Delivery& delivery,
                                     const std::string& error);
  // The deliveries of a message that counted toward max_deliveries: the transport's
  // count less those the store failed.
  std::uint32_t counted_deliveries(const Delivery& delivery) const;

  Transport& transport_;
  std::function<DispatchOutcome(const TransportMessage&)> consume_;
  ConsumerRunnerOptions options_;
  std::optional<Subscription> subscription_;
  // Deliveries the store failed, by message id; only the running thread touches it.
  std::unordered_map<std::string, std::uint32_t> store_failed_deliveries_;
  std::atomic<std::uint64_t> processed_ = 0;
  std::atomic<std::uint64_t> skipped_duplicates_ = 0;
  std::atomic<std::uint64_t> unhandled_ = 0;
  std::atomic<std::uint64_t> returned_ = 0;
  std::atomic<std::uint64_t> store_failures_ = 0;
  std::atomic<std::uint64_t> dead_lettered_ = 0;
  std::atomic<std::uint64_t> returned_on_stop_ = 0;
  std::atomic<std::uint64_t> max_held_ = 0;
};

}  // namespace docket

#endif  // DOCKET_TRANSPORTS_CONSUMER_RUNNER_H_
