#include "peak_rss.h"

#include <sys/resource.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "docket/core/error.h"

namespace docket::bench {

std::uint64_t peak_rss_bytes() {
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) != 0) {
    throw InfrastructureError(std::string("getrusage(RUSAGE_SELF) failed: ") +
                              std::strerror(errno));
  }
  // Linux reports ru_maxrss in kibibytes.
  return static_cast<std::uint64_t>(usage.ru_maxrss) * 1024U;
}

}  // namespace docket::bench
