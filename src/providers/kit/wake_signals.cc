#include "providers/kit/wake_signals.h"

#include <map>
#include <mutex>
#include <string>

namespace docket::kit {

std::shared_ptr<WakeSignal> wake_signal_of(std::string_view database) {
  static std::mutex mutex;
  static std::map<std::string, std::weak_ptr<WakeSignal>, std::less<>> signals;
  const std::lock_guard lock(mutex);
  // Forget the signals of databases no store holds any more, so that the map does not
  // grow with every database a long process opens and closes.
  std::erase_if(signals, [](const auto& entry) { return entry.second.expired(); });
  std::weak_ptr<WakeSignal>& slot = signals[std::string(database)];
  // A signal whose last holder let go after the erase above is replaced too.
  std::shared_ptr<WakeSignal> signal = slot.lock();
  if (!signal) {
    signal = std::make_shared<WakeSignal>();
    slot = signal;
  }
  return signal;
}

}  // namespace docket::kit
