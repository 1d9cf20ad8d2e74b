// What an outbox holds, counted, for an operator (`docket outbox stats`) or a health
// check: every message by status, the pending ones split by why they wait, per
// destination, and how long the oldest message that is due has waited.
//
// A pending message is exactly one of:
//   due         due now (next_attempt_at <= now): waiting for a relay, or being published
//   in_backoff  a failed attempt recorded, the next one due later
//   scheduled   never attempted, due later (OutboxMessage::deliver_at)
//
// Thread-safety: plain values; outbox_count_kind() and count_outbox_rows() are pure.
#ifndef DOCKET_OUTBOX_OUTBOX_STATS_H_
#define DOCKET_OUTBOX_OUTBOX_STATS_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "docket/core/clock.h"
#include "docket/outbox/outbox_message.h"

namespace docket {

struct OutboxCounts {
  std::uint64_t due = 0;
  std::uint64_t in_backoff = 0;
  std::uint64_t scheduled = 0;
  std::uint64_t parked = 0;
  std::uint64_t done = 0;
  std::uint64_t skipped = 0;
  std::uint64_t cancelled = 0;

  std::uint64_t pending() const noexcept { return due + in_backoff + scheduled; }
  friend bool operator==(const OutboxCounts&, const OutboxCounts&) = default;
};

struct OutboxStats {
  OutboxCounts total;
  // By destination_of() the row: the staged destination, or the event type.
  std::map<std::string, OutboxCounts> by_destination;
  // When the message that has been due longest was staged (its created_at); nullopt
  // when none is due. now - this is the backlog's age.
  std::optional<Timestamp> oldest_due_created_at;
};

// Which counter of OutboxCounts a row of `status` counts in: for a pending row,
// `attempted` (attempts > 0) and `due_later` (next_attempt_at > now) decide. The one
// classification every store's stats() uses, in SQL groups or row by row.
std::uint64_t OutboxCounts::*outbox_count_kind(OutboxStatus status, bool attempted,
                                               bool due_later) noexcept;

// Adds `count` rows of one class (as outbox_count_kind) for `destination` to `stats`;
// `oldest_created_at` is the earliest created_at among them when they are due.
void add_outbox_rows(OutboxStats& stats, const std::string& destination, OutboxStatus status,
                     bool attempted, bool due_later, std::uint64_t count,
                     std::optional<Timestamp> oldest_created_at = std::nullopt);

}  // namespace docket

#endif  // DOCKET_OUTBOX_OUTBOX_STATS_H_
