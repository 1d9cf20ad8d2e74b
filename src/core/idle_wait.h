// How a poller (the relay, the pull consumer, the feed consumer) waits after a poll that
// found nothing: `first` after the first such poll, doubling after each further one up
// to `longest`, back to `first` after a poll that found work; ended early by a stop
// request and, when the poller has one, by its wake signal (docket/core/wake_signal.h).
//
//   IdleWait idle(settings.poll_interval, settings.max_poll_interval, signal);
//   for (;;) {
//     idle.before_poll();
//     if (poll() found work) idle.found_work(); else idle.wait(stop);
//   }
//
// So an idle poller without a signal queries its store once per `longest` at most, and
// one with a signal moves within milliseconds of a commit and still polls once per
// `longest` in case a notification was lost.
//
// Thread-safety: belongs to one poller's thread.
#ifndef DOCKET_CORE_IDLE_WAIT_H_
#define DOCKET_CORE_IDLE_WAIT_H_

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <stop_token>
#include <string>
#include <string_view>
#include <utility>

#include "docket/core/error.h"
#include "docket/core/wake_signal.h"

namespace docket::detail {

class IdleWait {
 public:
  // Throws ConfigurationError, naming `who` ("relay options") and the settings
  // poll_interval and max_poll_interval, unless 0 < first <= longest.
  static void check(std::string_view who, std::chrono::microseconds first,
                    std::chrono::microseconds longest) {
    if (first.count() <= 0) {
      throw ConfigurationError(std::string(who) + ": poll_interval is " +
                               std::to_string(first.count()) + " us; it must be positive");
    }
    if (longest < first) {
      throw ConfigurationError(std::string(who) + ": max_poll_interval is " +
                               std::to_string(longest.count()) + " us, below poll_interval (" +
                               std::to_string(first.count()) +
                               " us); give a longest idle wait at least as long as the first");
    }
  }

  // Precondition: check(first, longest) passes.
  IdleWait(std::chrono::microseconds first, std::chrono::microseconds longest,
           std::shared_ptr<WakeSignal> signal)
      : first_(first), longest_(longest), next_(first), signal_(std::move(signal)) {}

  // Before each poll: a notification from now on ends the next wait at once.
  void before_poll() {
    if (signal_)
      seen_ = signal_->count();
  }

  // After a poll that found work: the next idle wait is `first` again.
  void found_work() noexcept { next_ = first_; }

  // After a poll that found nothing: waits, then lengthens the next wait. Returns
  // whether the wake signal ended it.
  bool wait(std::stop_token stop) {
    const std::chrono::microseconds waiting = next_;
    next_ = std::min(longest_, next_ * 2);
    if (signal_)
      return signal_->wait(seen_, waiting, std::move(stop));
    std::mutex mutex;
    std::condition_variable_any stopped;
    std::unique_lock lock(mutex);
    stopped.wait_for(lock, stop, waiting, [] { return false; });
    return false;
  }

  // The wait the next wait() would wait at most.
  std::chrono::microseconds next_wait() const noexcept { return next_; }

 private:
  std::chrono::microseconds first_;
  std::chrono::microseconds longest_;
  std::chrono::microseconds next_;
  std::shared_ptr<WakeSignal> signal_;
  std::uint64_t seen_ = 0;
};

}  // namespace docket::detail

#endif  // DOCKET_CORE_IDLE_WAIT_H_
