#include "providers/kit/legacy_probe.h"

namespace docket::kit {

LegacyDataError legacy_data_error(const LegacyPlace& place, std::string_view key) {
  return LegacyDataError(
      place.collection, std::string(key),
      place.where + " holds at least one " + place.record + " whose key ('" + std::string(key) +
          "') carries no tenant segment, so it was written by a release that stored keys "
          "without one. Those " +
          place.records +
          " are unaddressable under the current key shape: acting on the absence this store "
          "found would start a second, disjoint history under the same identity. Nothing has "
          "been modified. Re-key the " +
          place.records +
          " with their tenant segment (docs/keys.md), or point the store at a "
          "fresh " +
          place.fresh + ".");
}

void LegacyProbeOnce::check(const Probe& probe) {
  const std::lock_guard lock(mutex_);
  if (legacy_key_) {
    throw legacy_data_error(place_, *legacy_key_);
  }
  if (probed_) {
    return;
  }
  ++probes_;
  std::optional<std::string> found = probe();
  probed_ = true;
  if (found) {
    legacy_key_ = std::move(found);
    throw legacy_data_error(place_, *legacy_key_);
  }
}

LegacyKeyPlace legacy_scan_place(const LegacyPlace& place, bool exists) {
  return LegacyKeyPlace{.where = place.where,
                        .records = place.record + "s",
                        .exists = exists,
                        .legacy = 0,
                        .examples = {}};
}

void LegacyKeyTally::add(std::string_view key, std::string_view group) {
  ++place_.legacy;
  if (place_.examples.size() < max_examples_ && groups_.emplace(group).second) {
    place_.examples.emplace_back(key);
  }
}

}  // namespace docket::kit
