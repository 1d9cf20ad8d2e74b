// How every provider stores a Timestamp: signed Unix microseconds (UTC), the
// Timestamp's own count, so a round trip is exact. Document providers that need text
// use format_timestamp() (docket/core/clock.h) on top of this.
//
// Thread-safety: pure functions.
#ifndef DOCKET_PROVIDERS_KIT_TIME_CODEC_H_
#define DOCKET_PROVIDERS_KIT_TIME_CODEC_H_

#include <chrono>
#include <cstdint>

#include "docket/core/clock.h"

namespace docket::kit {

constexpr std::int64_t to_micros(Timestamp t) noexcept {
  return t.time_since_epoch().count();
}

constexpr Timestamp from_micros(std::int64_t micros) noexcept {
  return Timestamp(std::chrono::microseconds(micros));
}

}  // namespace docket::kit

#endif  // DOCKET_PROVIDERS_KIT_TIME_CODEC_H_
