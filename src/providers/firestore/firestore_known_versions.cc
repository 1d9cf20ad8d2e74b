#include "providers/firestore/firestore_known_versions.h"

namespace docket::firestore::detail {

void KnownVersions::saw(const std::string& stream, std::int64_t version) {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (const auto found = highest_.find(stream); found != highest_.end()) {
    if (version > found->second) {
      found->second = version;
    }
    return;
  }
  if (highest_.size() == kCapacity) {
    highest_.erase(highest_.begin());
  }
  highest_.emplace(stream, version);
}

bool KnownVersions::exists(const std::string& stream, std::int64_t version) {
  const std::lock_guard<std::mutex> lock(mutex_);
  const auto found = highest_.find(stream);
  return found != highest_.end() && version <= found->second;
}

}  // namespace docket::firestore::detail
