#include "docket/backoff.h"

#include <string>

#include "docket/error.h"
#include "outbox/stable_hash.h"

namespace docket {

std::chrono::microseconds retry_delay(const RelayOptions& options, std::string_view message_id,
                                      int attempt) {
  if (attempt < 1) {
    throw InvalidInputError("retry_delay: attempt is " + std::to_string(attempt) +
                            "; pass the number of failed attempts so far (1 or more)");
  }
  const auto& s = options.settings();
  // Doubling stops at the cap, so the product never overflows.
  std::chrono::microseconds delay = s.backoff_base;
  for (int n = 1; n < attempt && delay < s.backoff_cap; ++n) {
    delay = delay > s.backoff_cap / 2 ? s.backoff_cap : delay * 2;
  }
  delay = std::min(delay, s.backoff_cap);
  const double u = outbox::unit_interval(
      outbox::stable_hash(0x6a17, message_id, static_cast<std::uint64_t>(attempt)));
  const double scaled = static_cast<double>(delay.count()) * (1.0 - s.jitter * u);
  return std::chrono::microseconds(static_cast<std::chrono::microseconds::rep>(scaled));
}

}  // namespace docket
