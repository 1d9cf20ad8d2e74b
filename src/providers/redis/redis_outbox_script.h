// The Redis outbox's relay-side script: every change of a message after it committed
// (claim, complete, fail, replay, skip, cancel, both purges) and the ranged reads run
// as one script, which reads the message, decides as kit/outbox_row.h does and writes
// it with its indexes, nothing interleaved (Redis runs one script at a time): of many
// relays claiming at once each message goes to one, and a change under a superseded
// token changes nothing.
//
// ARGV: the operation, the message key's namespace (P outbox:message:), the due, ready,
// feed, parked and done sets (redis_keyspace.h), then the operation's arguments:
//
//   claim        token, now, lease_until, limit, most moved -> the leased messages'
//                HGETALLs, by sequence. First the ids of the due set whose time has
//                come move to the ready set (scored by sequence), the earliest due
//                first and at most `most moved` of them (so a backlog is taken in
//                bounded script runs, never one that blocks the server for long), then
//                the ready set is read from the lowest sequence: each message still
//                leasable at `now` is leased
//                and moves back to the due set, scored by lease_until (so a lease that
//                runs out makes it due again). Only messages first of their ordering
//                key are ever in either set, so order per key needs no query.
//   complete     id, token, now                   -> 1 when done
//   complete_all token, now, id... -> how many were done: each id as `complete` takes
//                it, in one run (a relay's batch: one run's set-up, not one a message)
//   fail         id, token, park (1/0), next_attempt_at, error -> 1 when recorded
//   replay, skip, cancel   id, now                -> 1 when changed
//   purge_parked cutoff, limit   parked by sequence whose next_attempt_at < cutoff
//   purge_done   cutoff, limit   done by done_at below the cutoff  -> how many deleted
//   range        feed|parked, after, limit        -> HGETALLs by sequence above `after`
//
// A message that stops holding its ordering key (done, skipped, cancelled, purged
// while parked) leaves its key's set, and when it was the first there, the next one
// becomes due. A key of another type where one of the sets belongs is refused (an
// error reply naming it) before anything is written.
//
// Thread-safety: a constant.
#ifndef DOCKET_PROVIDERS_REDIS_REDIS_OUTBOX_SCRIPT_H_
#define DOCKET_PROVIDERS_REDIS_REDIS_OUTBOX_SCRIPT_H_

#include <string_view>

namespace docket::redis::detail {

std::string_view outbox_script_source() noexcept;

}  // namespace docket::redis::detail

#endif  // DOCKET_PROVIDERS_REDIS_REDIS_OUTBOX_SCRIPT_H_
