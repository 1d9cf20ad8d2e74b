// A wake-up between polls. Producers' commits notify it; a relay or a consumer that
// found nothing to do waits on it instead of sleeping a whole poll interval, so a
// message moves milliseconds after its commit, not an interval after.
//
//   const std::uint64_t seen = signal.count();  // before the poll
//   if (poll() finds nothing) signal.wait(seen, idle_interval, stop);
//
// Reading count() before the poll and passing it to wait() closes the window between
// them: a notification that arrives after the poll began ends the wait at once.
//
// A hint, never a guarantee: a wait may end with nothing to do (a notification for
// work another poller took, or for rows the waiter does not read), and a commit may not
// end it (a notification lost with a connection, another process on SQLite). So every
// waiter still polls when its wait times out: a lost notification delays a message by
// one interval and loses nothing.
//
// Thread-safety: every member may be called from many threads at once.
#ifndef DOCKET_CORE_WAKE_SIGNAL_H_
#define DOCKET_CORE_WAKE_SIGNAL_H_

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <stop_token>

namespace docket {

class WakeSignal {
 public:
  WakeSignal() = default;
  WakeSignal(const WakeSignal&) = delete;
  WakeSignal& operator=(const WakeSignal&) = delete;

  // How many notifications there have been.
  std::uint64_t count() const;

  // Counts one notification and wakes every waiter.
  void notify();

  // Waits until count() exceeds `seen`, `timeout` has passed or `stop` is requested,
  // whichever is first; returns whether count() exceeds `seen`.
  bool wait(std::uint64_t seen, std::chrono::microseconds timeout, std::stop_token stop = {}) const;

 private:
  mutable std::mutex mutex_;
  mutable std::condition_variable_any changed_;
  std::uint64_t count_ = 0;
};

}  // namespace docket

#endif  // DOCKET_CORE_WAKE_SIGNAL_H_
