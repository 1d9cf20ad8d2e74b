#include "core/readable_type_name.h"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>

namespace docket::core {

std::string readable_type_name(std::type_index type) {
  int status = 0;
  // The demangler allocates with malloc: freed by the deleter.
  const std::unique_ptr<char, decltype(&std::free)> demangled(
      abi::__cxa_demangle(type.name(), nullptr, nullptr, &status), &std::free);
  return status == 0 && demangled ? std::string(demangled.get()) : std::string(type.name());
}

}  // namespace docket::core
