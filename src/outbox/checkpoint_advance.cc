// The pull consumer's checkpoint-advance rule (docket/outbox/pull_consumer.h, step 4).
#include <algorithm>

#include "docket/outbox/pull_consumer.h"

namespace docket {

std::int64_t advance_checkpoint(std::int64_t checkpoint, const std::vector<std::int64_t>& processed,
                                std::map<std::int64_t, Timestamp>& gaps_first_seen, Timestamp now,
                                std::chrono::microseconds gap_timeout) {
  for (const std::int64_t position : processed) {
    if (position <= checkpoint) {
      continue;
    }
    if (position > checkpoint + 1) {
      // Positions checkpoint+1 .. position-1 are not visible: a gap below the high-water
      // mark. Its age is counted from when it was first seen at this lowest position.
      const auto [seen, inserted] = gaps_first_seen.try_emplace(checkpoint + 1, now);
      if (inserted || now - seen->second < gap_timeout) {
        break;
      }
    }
    checkpoint = position;
  }
  // Gaps at or below the checkpoint are passed: forget them.
  gaps_first_seen.erase(gaps_first_seen.begin(), gaps_first_seen.upper_bound(checkpoint));
  return checkpoint;
}

}  // namespace docket
