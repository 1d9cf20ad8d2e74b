#include "docket/outbox/outbox_stats.h"

namespace docket {

std::uint64_t OutboxCounts::*outbox_count_kind(OutboxStatus status, bool attempted,
                                               bool due_later) noexcept {
  switch (status) {
    case OutboxStatus::kPending:
      if (!due_later)
        return &OutboxCounts::due;
      return attempted ? &OutboxCounts::in_backoff : &OutboxCounts::scheduled;
    case OutboxStatus::kDone:
      return &OutboxCounts::done;
    case OutboxStatus::kParked:
      return &OutboxCounts::parked;
    case OutboxStatus::kSkipped:
      return &OutboxCounts::skipped;
    case OutboxStatus::kCancelled:
      return &OutboxCounts::cancelled;
  }
  return &OutboxCounts::done;
}

void add_outbox_rows(OutboxStats& stats, const std::string& destination, OutboxStatus status,
                     bool attempted, bool due_later, std::uint64_t count,
                     std::optional<Timestamp> oldest_created_at) {
  const auto counter = outbox_count_kind(status, attempted, due_later);
  stats.total.*counter += count;
  stats.by_destination[destination].*counter += count;
  if (counter == &OutboxCounts::due && oldest_created_at &&
      (!stats.oldest_due_created_at || *oldest_created_at < *stats.oldest_due_created_at)) {
    stats.oldest_due_created_at = oldest_created_at;
  }
}

}  // namespace docket
