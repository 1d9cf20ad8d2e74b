#include "providers/kit/http/environment_lookup.h"

#include <cstdlib>

namespace docket::kit::http {

std::optional<std::string> process_environment(std::string_view name) {
  const char* value = std::getenv(std::string(name).c_str());
  if (value == nullptr) {
    return std::nullopt;
  }
  return std::string(value);
}

}  // namespace docket::kit::http
