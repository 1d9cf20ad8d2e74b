// Exact times in items (cosmos_exact_time.h).
#include "providers/cosmos/cosmos_exact_time.h"

#include <charconv>
#include <cstdint>
#include <string>
#include <system_error>

#include "providers/kit/time_codec.h"

namespace docket::cosmos::detail {

nlohmann::json exact_time(Timestamp time) {
  return std::to_string(kit::to_micros(time));
}

std::optional<Timestamp> exact_time_of(const nlohmann::json& value) {
  if (!value.is_string()) {
    return std::nullopt;
  }
  const std::string& digits = value.get_ref<const std::string&>();
  std::int64_t micros = 0;
  const char* const end = digits.data() + digits.size();
  const auto [stop, error] = std::from_chars(digits.data(), end, micros);
  if (digits.empty() || error != std::errc() || stop != end) {
    return std::nullopt;
  }
  return kit::from_micros(micros);
}

}  // namespace docket::cosmos::detail
