#include "support/unique_name.h"

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <random>

namespace docket::test_support {

std::string unique_name(std::string_view prefix) {
  static std::atomic<unsigned> counter{0};
  return std::string(prefix) + "_" + std::to_string(::getpid()) + "_" +
         std::to_string(counter.fetch_add(1));
}

std::string unique_suffix() {
  static std::atomic<unsigned> counter{0};
  static const std::string random = [] {
    std::random_device device;
    char text[9];
    std::snprintf(text, sizeof text, "%08x", static_cast<unsigned>(device()));
    return std::string(text);
  }();
  return std::to_string(::getpid()) + "-" + random + "-" + std::to_string(counter.fetch_add(1));
}

}  // namespace docket::test_support
