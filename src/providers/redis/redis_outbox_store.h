// The Redis OutboxStore: one hash per message (redis_outbox_row.h), staged through the
// unit of work's docket::redis::Transaction (redis_unit.h), so that it commits in the
// same run of the commit script as the producer's writes (or a handler's, and the
// inbox's dedup record, when an inbox handler stages it): together or not at all.
//
// Global order: the commit script takes each message's sequence from the outbox's
// counter (INCR) as it writes it. Redis runs one script at a time, so sequences become
// visible in the order they are drawn: a visible sequence never has an invisible
// predecessor, a unit held open holds no number, and one that rolls back draws none.
//
// The relay finds due messages without scanning the keyspace: the messages free to go
// (pending, and first of their ordering key, or without one) wait in a sorted set by
// the time they become claimable; a claim moves those whose time has come to a set by
// sequence (at most 1000, or 4 x its limit, per claim: the earliest due first) and
// leases from its lowest (redis_outbox_script.h). Order per key: each
// (tenant, ordering key) keeps a sorted set of the messages that hold it (pending or
// parked) by sequence, and only its first is ever in the due set; when it is done,
// skipped, cancelled or purged, the next becomes due in the same script.
//
//   insert     staged in the unit (an id staged twice in one unit is refused at once;
//              one committed before, by the commit script)
//   claim, complete, fail, replay, skip, cancel, purge_*
//              one run of the outbox script each (complete_all: one pipelined run per
//              id, one round trip)
//   parked, read_feed
//              one run of its range operation: the ids by sequence and their hashes,
//              one round trip
//   find       HGETALL
//   list, stats  the SPI's defaults over read_feed and parked
//
// Capabilities: joins the producer's writes (one script run: no limit on writes, 1 GB
// per commit, 512 MB per value), no interactive transaction, a feed of global
// positions, shared between processes, one writer at a time (Redis runs one script at
// a time). It hears no commits (no staged signal): relays poll.
//
// Thread-safety: every member may be called from many threads (and processes) at once;
// a unit of work belongs to the thread that began it.
#ifndef DOCKET_PROVIDERS_REDIS_REDIS_OUTBOX_STORE_H_
#define DOCKET_PROVIDERS_REDIS_REDIS_OUTBOX_STORE_H_

#include <memory>
#include <string_view>

#include "docket/core/clock.h"
#include "docket/outbox/outbox_store.h"

namespace docket::redis::detail {

// Throws ConfigurationError for a URL parse_url refuses; connects on first use.
// `clock` must outlive the store.
std::unique_ptr<OutboxStore> open_outbox_store(std::string_view url, const Clock& clock);

}  // namespace docket::redis::detail

#endif  // DOCKET_PROVIDERS_REDIS_REDIS_OUTBOX_STORE_H_
