#include "providers/cosmos/cosmos_partition_range_cache.h"

#include "providers/cosmos/cosmos_partition_ranges.h"

namespace docket::cosmos::detail {

std::vector<std::string> PartitionRangeCache::ranges(const Client& client,
                                                     std::string_view container) {
  const auto now = std::chrono::steady_clock::now();
  {
    const std::lock_guard lock(mutex_);
    if (!ranges_.empty() && container_ == container && now - read_at_ < kMaxAge) {
      return ranges_;
    }
  }
  // Read outside the lock: a slow request must not hold every other claim of the store.
  std::vector<std::string> read = read_partition_key_ranges(client, container);
  const std::lock_guard lock(mutex_);
  container_ = std::string(container);
  ranges_ = read;
  read_at_ = now;
  return read;
}

void PartitionRangeCache::forget() {
  const std::lock_guard lock(mutex_);
  ranges_.clear();
}

}  // namespace docket::cosmos::detail
