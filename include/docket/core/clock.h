// Time source for everything docket timestamps or schedules (processed-at, retries,
// leases, retention cutoffs). Stores and relays take a Clock so that tests can move
// time by hand instead of sleeping.
//
// Two kinds of clock. A wall clock (SystemClock, OffsetClock) is this process's reading
// of real time, which may be off from other processes' by their clocks' skew: a store
// with a clock of its own takes and compares leases on that one instead
// (StoreCapabilities::lease_clock), so that a skewed process cannot take over a live
// lease early. A simulated clock (ManualClock) is the only time there is in a test that
// moves it by hand: every store follows it, leases included.
//
// Thread-safety: every Clock is safe to call from many threads at once. ManualClock's
// setters may race with now(); each call sees either the old or the new time.
#ifndef DOCKET_CORE_CLOCK_H_
#define DOCKET_CORE_CLOCK_H_

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>

namespace docket {

// A point in time with microsecond resolution, as stored by every provider.
using Timestamp = std::chrono::sys_time<std::chrono::microseconds>;

class Clock {
 public:
  virtual ~Clock() = default;
  virtual Timestamp now() const = 0;
  // True for a clock that moves only when a test moves it (see above).
  virtual bool simulated() const noexcept { return false; }
};

// The operating system's real-time clock.
class SystemClock final : public Clock {
 public:
  Timestamp now() const override;

  // A process-wide instance, for callers that take a `const Clock&`.
  static const SystemClock& instance() noexcept;
};

// A clock that moves only when told to. Starts at `start`.
class ManualClock final : public Clock {
 public:
  explicit ManualClock(Timestamp start) noexcept : micros_(start.time_since_epoch().count()) {}

  Timestamp now() const override {
    return Timestamp(std::chrono::microseconds(micros_.load(std::memory_order_acquire)));
  }
  void set(Timestamp t) noexcept {
    micros_.store(t.time_since_epoch().count(), std::memory_order_release);
  }
  void advance(std::chrono::microseconds d) noexcept {
    micros_.fetch_add(d.count(), std::memory_order_acq_rel);
  }
  bool simulated() const noexcept override { return true; }

 private:
  std::atomic<std::int64_t> micros_;
};

// A wall clock that reads `base` moved by `offset` (ahead when positive): a process
// whose clock is wrong, as `docket chaos --clock-skew` and the lease tests make one.
// `base` must outlive it. Simulated when `base` is.
class OffsetClock final : public Clock {
 public:
  OffsetClock(const Clock& base, std::chrono::microseconds offset) noexcept
      : base_(base), offset_(offset) {}

  Timestamp now() const override { return base_.now() + offset_; }
  bool simulated() const noexcept override { return base_.simulated(); }

 private:
  const Clock& base_;
  std::chrono::microseconds offset_;
};

// RFC 3339 UTC text with microseconds, e.g. "2026-12-02T10:49:19.123456Z". Instants
// before 1970 are written like any other ("1969-12-31T23:59:59.999999Z"). Throws
// InvalidInputError for a year outside 0000..9999, which RFC 3339 cannot express.
std::string format_timestamp(Timestamp t);

}  // namespace docket

#endif  // DOCKET_CORE_CLOCK_H_
