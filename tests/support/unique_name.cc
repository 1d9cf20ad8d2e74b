#include "support/unique_name.h"

#include <unistd.h>

#include <atomic>

namespace docket::test_support {

std::string unique_name(std::string_view prefix) {
  static std::atomic<unsigned> counter{0};
  return std::string(prefix) + "_" + std::to_string(::getpid()) + "_" +
         std::to_string(counter.fetch_add(1));
}

}  // namespace docket::test_support
