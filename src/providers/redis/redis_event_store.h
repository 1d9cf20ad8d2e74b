// The Redis EventStore: each event a hash P event:{position}, each stream a list of
// its events' positions (index = version), every event's position in the feed and in
// its tenant's feed, sorted sets scored by position (redis_keyspace.h). The stream's
// key is src/keys' t:{tenant}:{aggregate type}:{aggregate id}, so each tenant has its
// own stream and versions.
//
// append is ONE run of the commit script (redis_unit.h), through a unit of work of the
// store's own: the script checks that the stream's list is as long as the first
// event's version (an exact expectation; "any version" checks nothing) and only then
// writes every event, each taking the next global position from the counter (INCR),
// so an append is whole or absent and a conflict writes nothing (the conflict's actual
// version is read afterwards). Redis runs one script at a time: positions become
// visible in the order drawn, never one in flight below a visible one, so read_all
// needs no gap handling.
//
// Inside a handler's unit (the docket::redis::Transaction of an inbox or outbox store
// on the same URL): the unit reads the stream's version once (LLEN, kit/unit_streams.h),
// checks the expectation against its view and stages the events in the unit's one
// script run, each at the version the unit numbered; another append between the read
// and the commit makes the script refuse the whole unit (ConcurrencyConflictError).
// Positions are assigned when the unit commits, so that append returns them as 0.
//
//   load           one script run: LRANGE of the stream from the version, and each
//                  event's HGETALL
//   read_all       one script run: ZRANGEBYSCORE of the feed (or the tenant's feed) from
//                  the position, at most `limit`, and each event's HGETALL
//   last_position  ZRANGE of the feed's last member
//
// Capabilities: joins handler writes, no interactive transaction, 1 GB per append and
// 512 MB per value, a feed of global positions, shared between processes, one writer at
// a time.
//
// Thread-safety: a store may be used from many threads at once.
#ifndef DOCKET_PROVIDERS_REDIS_REDIS_EVENT_STORE_H_
#define DOCKET_PROVIDERS_REDIS_REDIS_EVENT_STORE_H_

#include <memory>
#include <string_view>

#include "docket/core/clock.h"
#include "docket/eventsourcing/event_store.h"

namespace docket::redis::detail {

// Throws ConfigurationError for a URL parse_url refuses; connects on first use.
std::unique_ptr<EventStore> open_event_store(std::string_view url, const Clock& clock);

}  // namespace docket::redis::detail

#endif  // DOCKET_PROVIDERS_REDIS_REDIS_EVENT_STORE_H_
