// The once-per-store-instance legacy-key probe every document provider's event and saga
// stores share (DESIGN.md, Guards): before a store acts on silence (a load that came
// back empty, a version read that found nothing, a create that assumes nothing is
// there), it asks, at most once per instance, whether its collection or table holds a
// record whose key carries no tenant segment (keys/legacy.h). The provider says how to
// look (its probe); this says when, keeps the outcome and words the refusal.
//
// The outcome is kept: a clean probe is never repeated, a finding is thrown again on
// every later silence without another request; a probe that throws (the request
// failed) leaves the next check to probe again.
//
// Thread-safety: check() may be called from many threads at once; one probes while the
// others wait for its outcome.
#ifndef DOCKET_PROVIDERS_KIT_LEGACY_PROBE_H_
#define DOCKET_PROVIDERS_KIT_LEGACY_PROBE_H_

#include <atomic>
#include <cstddef>
#include <functional>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>

#include "docket/core/error.h"
#include "docket/stores/legacy_scan.h"

namespace docket::kit {

// What a refusal names, in the provider's words.
struct LegacyPlace {
  std::string collection;  // the table or collection, as LegacyDataError::collection()
  std::string where;       // "DynamoDB table 'app_docket_events'"
  std::string record;      // "event item", "saga document"
  std::string records;     // "items", "documents"
  std::string fresh;       // what to point the store at instead: "table_prefix", "prefix"
};

// "<where> holds at least one <record> whose key ('<key>') carries no tenant segment,
// ... Nothing has been modified. Re-key ... or point the store at a fresh <fresh>."
LegacyDataError legacy_data_error(const LegacyPlace& place, std::string_view key);

// The report of a full scan of `place` (docket/stores/legacy_scan.h), nothing found yet.
LegacyKeyPlace legacy_scan_place(const LegacyPlace& place, bool exists);
// Counts legacy keys into a place, every record counted, and keeps as examples the
// first key of each group (the records of one stream: a stream is named once however
// many events it holds) while fewer than `max_examples` are kept.
class LegacyKeyTally {
 public:
  LegacyKeyTally(LegacyKeyPlace& place, std::size_t max_examples)
      : place_(place), max_examples_(max_examples) {}

  // Counts `key`, of the group `group` (a saga's or inbox entry's: its key).
  void add(std::string_view key, std::string_view group);

 private:
  LegacyKeyPlace& place_;
  std::size_t max_examples_;
  std::set<std::string, std::less<>> groups_;  // of the examples kept
};

class LegacyProbeOnce {
 public:
  // Sends one probe request; returns a legacy key it found, or nullopt.
  using Probe = std::function<std::optional<std::string>()>;

  explicit LegacyProbeOnce(LegacyPlace place) : place_(std::move(place)) {}

  // Throws legacy_data_error() when the probe (run on the first call only, and again
  // after one that threw) found a legacy key; what `probe` throws when it fails.
  void check(const Probe& probe);

  // How many probes this guard has sent.
  int probes() const noexcept { return probes_.load(); }
  const LegacyPlace& place() const noexcept { return place_; }

 private:
  LegacyPlace place_;
  std::mutex mutex_;
  bool probed_ = false;                    // guarded by mutex_
  std::optional<std::string> legacy_key_;  // guarded by mutex_
  std::atomic<int> probes_{0};
};

}  // namespace docket::kit

#endif  // DOCKET_PROVIDERS_KIT_LEGACY_PROBE_H_
