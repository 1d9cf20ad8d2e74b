#include "docket/core/wake_signal.h"

namespace docket {

std::uint64_t WakeSignal::count() const {
  const std::lock_guard lock(mutex_);
  return count_;
}

void WakeSignal::notify() {
  {
    const std::lock_guard lock(mutex_);
    ++count_;
  }
  changed_.notify_all();
}

bool WakeSignal::wait(std::uint64_t seen, std::chrono::microseconds timeout,
                      std::stop_token stop) const {
  std::unique_lock lock(mutex_);
  return changed_.wait_for(lock, stop, timeout, [&] { return count_ > seen; });
}

}  // namespace docket
