#include "providers/kit/tenant_rekey_marker.h"

#include <unistd.h>

#include <chrono>

namespace docket::kit {
namespace {

std::string started(const RekeyMarker& marker) {
  return "started " + format_timestamp(marker.started_at) + " by " + marker.started_by;
}

}  // namespace

RekeyMarker marker_of_this_process(std::string_view tenant) {
  return RekeyMarker{.tenant = std::string(tenant),
                     .started_at = std::chrono::time_point_cast<std::chrono::microseconds>(
                         std::chrono::system_clock::now()),
                     .started_by = "process " + std::to_string(::getpid())};
}

LegacyDataError rekey_in_progress_error(std::string_view store, std::string_view where,
                                        const RekeyMarker& marker) {
  return LegacyDataError(
      std::string(where), std::string(kRekeyMarkerKey),
      std::string(store) + ": a tenant re-key under tenant '" + marker.tenant + "' (" +
          started(marker) +
          ") is running on this store, or was interrupted: " + std::string(where) +
          " holds its marker. Until it has finished and verified, a stream or saga it moves "
          "may be half moved, so this store reads and writes none. Nothing was read or "
          "written. If it is not running, resume it: docket migrate tenant-rekey --store "
          "<this store's URL> --tenant '" +
          marker.tenant +
          "' (with every writer stopped); it finishes what was left and removes "
          "the marker. Then open the store anew");
}

InvalidInputError other_rekey_in_progress_error(std::string_view tenant, std::string_view where,
                                                const RekeyMarker& marker) {
  return InvalidInputError(
      "a tenant re-key under tenant '" + marker.tenant + "' (" + started(marker) +
      ") is running on this store, or was interrupted (" + std::string(where) +
      " holds its marker), so a re-key under '" + std::string(tenant) +
      "' does not start: finish that one first, with the same command under --tenant '" +
      marker.tenant + "', then run this one. Nothing was written");
}

void RekeyMarkerOnce::check(const Probe& probe) {
  const std::lock_guard lock(mutex_);
  if (marker_) {
    throw rekey_in_progress_error(store_, where_, *marker_);
  }
  if (probed_) {
    return;
  }
  ++probes_;
  std::optional<RekeyMarker> found = probe();
  probed_ = true;
  if (found) {
    marker_ = std::move(found);
    throw rekey_in_progress_error(store_, where_, *marker_);
  }
}

}  // namespace docket::kit
