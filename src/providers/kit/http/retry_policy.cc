#include "providers/kit/http/retry_policy.h"

#include <array>
#include <cstdint>
#include <thread>
#include <utility>

#include "core/os_random.h"
#include "docket/core/error.h"
#include "providers/kit/http/sha256.h"

namespace docket::kit::http {
namespace {

RetryOptions checked(std::string_view owner, RetryOptions options) {
  if (options.max_attempts < 1) {
    throw ConfigurationError(std::string(owner) + ": max_attempts is " +
                             std::to_string(options.max_attempts) +
                             "; it counts the first attempt, so it must be 1 or more");
  }
  return options;
}

}  // namespace

RetryPolicy::RetryPolicy(std::string_view owner, RetryOptions options, Sleep sleep)
    : options_(checked(owner, options)),
      schedule_(owner, options.base, options.cap, 1.0),
      sleep_(sleep ? std::move(sleep)
                   : Sleep([](std::chrono::microseconds d) { std::this_thread::sleep_for(d); })) {}

std::string RetryPolicy::random_token() {
  std::array<std::uint8_t, 8> bytes{};
  core::fill_os_random(bytes);
  return hex_lower(bytes);
}

}  // namespace docket::kit::http
