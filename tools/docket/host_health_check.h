// `docket health --host-file PATH`: the check of a ServiceHost's health file
// (docket/core/service_host.h, ServiceHostSettings::health_file). It holds when the file
// was rewritten within `max_age`, the host runs, and no loop is restarting or finished
// early; the detail names what is wrong (a stale file, a stopped host, each failing
// loop with its last error).
//
// Thread-safety: a pure function of the file's contents and the time.
#ifndef DOCKET_TOOLS_DOCKET_HOST_HEALTH_CHECK_H_
#define DOCKET_TOOLS_DOCKET_HOST_HEALTH_CHECK_H_

#include <chrono>
#include <string>

#include "docket/core/clock.h"

namespace docket::tool {

struct HostCheck {
  bool ok = false;
  std::string detail;
};

// Reads `path` and judges it at `now`. A file that is missing, unreadable or not a
// health file fails, saying so.
HostCheck check_host_health_file(const std::string& path, std::chrono::microseconds max_age,
                                 Timestamp now);

}  // namespace docket::tool

#endif  // DOCKET_TOOLS_DOCKET_HOST_HEALTH_CHECK_H_
