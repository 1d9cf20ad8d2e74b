#include "docket/outbox/outbox_store.h"

namespace docket {
namespace {

// Rows the default stats() and list() read a call.
constexpr std::size_t kStatsPage = 1000;

}  // namespace

std::vector<OutboxRecord> OutboxStore::list(OutboxStatus status, std::int64_t after_sequence,
                                            std::size_t limit) {
  if (status == OutboxStatus::kParked)
    return parked(after_sequence, limit);
  std::vector<OutboxRecord> matches;
  for (;;) {
    const std::vector<OutboxRecord> page = read_feed(after_sequence, kStatsPage);
    for (const OutboxRecord& row : page) {
      if (row.status == status) {
        matches.push_back(row);
        if (matches.size() == limit)
          return matches;
      }
    }
    // A page without matches goes on to the next (an empty result means the end); one
    // with some returns them, each call reading a bounded number of pages past them.
    if (page.size() < kStatsPage || !matches.empty())
      return matches;
    after_sequence = page.back().sequence;
  }
}

OutboxStats OutboxStore::stats(Timestamp now) {
  OutboxStats stats;
  std::int64_t after = 0;
  for (;;) {
    const std::vector<OutboxRecord> page = read_feed(after, kStatsPage);
    for (const OutboxRecord& row : page) {
      add_outbox_rows(stats, std::string(destination_of(row)), row.status, row.attempts > 0,
                      row.next_attempt_at > now, 1, row.created_at);
    }
    if (page.size() < kStatsPage)
      return stats;
    after = page.back().sequence;
  }
}

std::size_t OutboxStore::complete_all(std::span<const std::string> ids, std::string_view token,
                                      Timestamp now) {
  std::size_t marked = 0;
  for (const std::string& id : ids) {
    marked += complete(id, token, now) ? 1 : 0;
  }
  return marked;
}

}  // namespace docket
