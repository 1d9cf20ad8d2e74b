// The marker of a tenant re-key in progress (docket/stores/tenant_rekey.h), and the
// once-per-store-instance probe for it that every document provider's event and saga
// stores share.
//
// A re-key moves each stream in batches, one atomic write each, so a run killed between
// two batches of a stream leaves it half moved: its first events under the tenant, the
// rest legacy. A store reading it would load half a history as the whole one, and an
// append would fork it. So the re-key writes a marker into the store (a record of its
// own table or collection, outside every key range the stores read) before it writes
// anything else, and removes it only after the stores have been verified; while it is
// there, every event and saga store instance of that store refuses to read or write
// anything (LegacyDataError naming the re-key, where it was started and how to resume
// it). The re-key's own verification opens its stores without the probe.
//
// The probe runs on an instance's first operation (not only on silence, as the
// legacy-key guard does), and its outcome is kept: a marker found is thrown again on
// every later operation without another request (the instance stays refused: open a
// new one after the re-key finished), an absent one is never probed again (writers
// must be stopped before a re-key starts, docs/migrations.md), a probe that throws
// leaves the next operation to probe again.
//
// Thread-safety: RekeyMarkerOnce::check() may be called from many threads at once;
// one probes while the others wait for its outcome.
#ifndef DOCKET_PROVIDERS_KIT_TENANT_REKEY_MARKER_H_
#define DOCKET_PROVIDERS_KIT_TENANT_REKEY_MARKER_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "docket/core/clock.h"
#include "docket/core/error.h"

namespace docket::kit {

// The table or collection base name of the marker, beside the store's own
// ({prefix}docket_tenant_rekey), and the marker's key in it.
inline constexpr std::string_view kRekeyMarkerBase = "docket_tenant_rekey";
inline constexpr std::string_view kRekeyMarkerKey = "tenant-rekey";

// Whether a store probes for the marker: every store does, but the re-key's own
// verification.
enum class RekeyMarkerCheck { kProbe, kSkip };

// What the marker says: the re-key's tenant, and who started it when.
struct RekeyMarker {
  std::string tenant;
  Timestamp started_at{};
  std::string started_by;  // "process 4242"

  friend bool operator==(const RekeyMarker&, const RekeyMarker&) = default;
};

// The marker of a re-key under `tenant` started now by this process.
RekeyMarker marker_of_this_process(std::string_view tenant);

// The refusal of a store (`store`: "DynamoDB event store (table ...)") while `marker`
// is in place; `where` names the marker's table or collection.
LegacyDataError rekey_in_progress_error(std::string_view store, std::string_view where,
                                        const RekeyMarker& marker);

// The refusal of a re-key under `tenant` while another tenant's marker is in place.
InvalidInputError other_rekey_in_progress_error(std::string_view tenant, std::string_view where,
                                                const RekeyMarker& marker);

class RekeyMarkerOnce {
 public:
  // Reads the marker; nullopt when there is none.
  using Probe = std::function<std::optional<RekeyMarker>()>;

  // `store` and `where` are for the refusal. With kSkip the probe never runs: the
  // re-key's own verification, which must read what its marker guards.
  RekeyMarkerOnce(std::string store, std::string where, RekeyMarkerCheck check)
      : store_(std::move(store)),
        where_(std::move(where)),
        probed_(check == RekeyMarkerCheck::kSkip) {}

  // Throws rekey_in_progress_error() when the probe (run on the first call only, and
  // again after one that threw) found a marker; what `probe` throws when it fails.
  void check(const Probe& probe);

  // How many probes this instance has sent.
  int probes() const noexcept { return probes_.load(); }

 private:
  std::string store_;
  std::string where_;
  std::mutex mutex_;
  bool probed_ = false;                // guarded by mutex_
  std::optional<RekeyMarker> marker_;  // guarded by mutex_
  std::atomic<int> probes_{0};
};

}  // namespace docket::kit

#endif  // DOCKET_PROVIDERS_KIT_TENANT_REKEY_MARKER_H_
