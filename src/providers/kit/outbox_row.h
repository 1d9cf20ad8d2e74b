// An outbox row as a store without SQL keeps it (memory, Firestore): the record and its
// lease, which only the relay side sees, and the relay's state changes on it, the same
// for every such store (the outbox conformance suite checks them):
//
//   leasable   pending, due (next_attempt_at <= now), and not leased (no token, or a
//              lease that ended by now)
//   lease      takes the lease for `token` until `lease_until`
//   held_by    pending and leased to `token` (complete() and fail() need it; the lease
//              need not still last: a relay whose lease ran out but that no other relay
//              claimed after may still record its outcome)
//   complete   done at `now`, the lease ended
//   fail       one more attempt with its error, then parked or due again; the lease ended
//   replay     a parked row pending again, attempts reset, due at `now`, no lease
//   skip       a parked row skipped: done at `now`, never published, no lease
//   cancel     a pending row no relay has claimed since staging or its last attempt (no
//              lease token, whatever the time) cancelled: done at `now`, never published
//   holds_key  a row that holds its ordering key against later rows: pending or parked
//
// The one encoding of a message's headers in a stored text is outbox_headers.h.
//
// Thread-safety: plain values and pure functions.
#ifndef DOCKET_PROVIDERS_KIT_OUTBOX_ROW_H_
#define DOCKET_PROVIDERS_KIT_OUTBOX_ROW_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "docket/core/error.h"
#include "docket/outbox/outbox_message.h"
#include "docket/outbox/outbox_store.h"
#include "providers/kit/outbox_headers.h"
#include "providers/kit/time_codec.h"

namespace docket::kit {

struct OutboxRow {
  OutboxRecord record{};
  std::string lease_token{};     // empty: not leased
  std::int64_t lease_until = 0;  // Unix microseconds; 0 when not leased
};

inline bool leasable(const OutboxRow& row, Timestamp now) {
  return row.record.status == OutboxStatus::kPending && row.record.next_attempt_at <= now &&
         (row.lease_token.empty() || row.lease_until <= to_micros(now));
}

inline void lease(OutboxRow& row, std::string_view token, Timestamp lease_until) {
  row.lease_token = token;
  row.lease_until = to_micros(lease_until);
}

inline bool held_by(const OutboxRow& row, std::string_view token) {
  return row.record.status == OutboxStatus::kPending && !row.lease_token.empty() &&
         row.lease_token == token;
}

inline void end_lease(OutboxRow& row) {
  row.lease_token.clear();
  row.lease_until = 0;
}

inline void complete(OutboxRow& row, Timestamp now) {
  row.record.status = OutboxStatus::kDone;
  row.record.done_at = now;
  end_lease(row);
}

inline void fail(OutboxRow& row, const FailedAttempt& attempt) {
  ++row.record.attempts;
  row.record.last_error = attempt.error;
  if (attempt.park) {
    row.record.status = OutboxStatus::kParked;
  } else {
    row.record.next_attempt_at = attempt.next_attempt_at;
  }
  end_lease(row);
}

// Whether the row was parked (and is now pending again).
inline bool replay(OutboxRow& row, Timestamp now) {
  if (row.record.status != OutboxStatus::kParked) {
    return false;
  }
  row.record.status = OutboxStatus::kPending;
  row.record.attempts = 0;
  row.record.next_attempt_at = now;
  end_lease(row);
  return true;
}

// Whether the row was pending and unclaimed (and is now cancelled). A row a relay
// claimed keeps its token until the relay records the attempt, also past the lease:
// that relay may be publishing it, so it is not cancelled.
inline bool cancel(OutboxRow& row, Timestamp now) {
  if (row.record.status != OutboxStatus::kPending || !row.lease_token.empty()) {
    return false;
  }
  row.record.status = OutboxStatus::kCancelled;
  row.record.done_at = now;
  return true;
}

// Whether the row was parked (and is now skipped).
inline bool skip(OutboxRow& row, Timestamp now) {
  if (row.record.status != OutboxStatus::kParked) {
    return false;
  }
  row.record.status = OutboxStatus::kSkipped;
  row.record.done_at = now;
  end_lease(row);
  return true;
}

inline bool holds_key(const OutboxRecord& record) {
  return record.ordering_key &&
         (record.status == OutboxStatus::kPending || record.status == OutboxStatus::kParked);
}

}  // namespace docket::kit

#endif  // DOCKET_PROVIDERS_KIT_OUTBOX_ROW_H_
