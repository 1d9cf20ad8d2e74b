// The health file of a ServiceHost (ServiceHostSettings::health_file): its health as one
// JSON object, rewritten whole every health_interval, so that a probe in another process
// (`docket health --host-file PATH`) reads what the host last knew and when:
//
//   {"pid":4242,"written_at":"2026-12-06T19:30:00.000000Z","written_at_us":1796585400000000,
//    "running":true,"healthy":true,"loops":[{"name":"relay","state":"running","restarts":0,
//    "last_error":"","last_error_at":null}],"health_file_error":""}
//
// A host that died or hangs stops rewriting it: written_at is how a reader tells.
//
// Invariant: a reader sees a whole file, the previous one or the new one (written to a
// file beside it, then renamed over it), never a part.
// Thread-safety: pure functions; one writer per path.
#ifndef DOCKET_SRC_CORE_HOST_HEALTH_FILE_H_
#define DOCKET_SRC_CORE_HOST_HEALTH_FILE_H_

#include <string>
#include <string_view>

#include "docket/core/clock.h"
#include "docket/core/service_host.h"

namespace docket::core {

std::string host_health_json(const HostHealth& health, Timestamp written_at, long pid);

// Writes `contents` to `path` atomically (above). Throws InfrastructureError naming the
// path and the system's reason when it cannot.
void write_host_health_file(const std::string& path, std::string_view contents);

}  // namespace docket::core

#endif  // DOCKET_SRC_CORE_HOST_HEALTH_FILE_H_
