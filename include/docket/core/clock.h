// Time source for everything docket timestamps or schedules (processed-at, retries,
// leases, retention cutoffs). Stores and relays take a Clock so that tests can move
// time by hand instead of sleeping.
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

 private:
  std::atomic<std::int64_t> micros_;
};

// RFC 3339 UTC text with microseconds, e.g. "2026-12-02T10:49:19.123456Z". Instants
// before 1970 are written like any other ("1969-12-31T23:59:59.999999Z"). Throws
// InvalidInputError for a year outside 0000..9999, which RFC 3339 cannot express.
std::string format_timestamp(Timestamp t);

}  // namespace docket

#endif  // DOCKET_CORE_CLOCK_H_
