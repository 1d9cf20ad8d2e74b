// The stream entries and pending entries in Redis's replies to the stream commands, read
// from hiredis's parsed reply (providers/redis/redis_reply.h gives the reply; its
// nesting is read here):
//
//   XREADGROUP   nil, or [[stream, [entry...]]...]
//   XCLAIM       [entry...]          (an entry deleted meanwhile: absent, or nil fields)
//   XAUTOCLAIM   [cursor, [entry...], [deleted id...]]
//   XPENDING     [[id, consumer, idle ms, delivery count]...]   (the extended form)
// where an entry is [id, [name, value, ...]].
//
// Invariant: a reply of another shape is an InfrastructureError naming the command and
// what was found, never undefined behaviour.
//
// Thread-safety: pure functions.
#ifndef DOCKET_TRANSPORTS_REDIS_REDIS_STREAMS_ENTRIES_H_
#define DOCKET_TRANSPORTS_REDIS_REDIS_STREAMS_ENTRIES_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "providers/redis/redis_reply.h"
#include "transports/redis/redis_streams_wire.h"

namespace docket::redis::streams {

struct StreamEntry {
  std::string id;  // "1700000000000-0"
  Fields fields;
};

// XREADGROUP's entries of its one stream, in stream order (none for nil).
std::vector<StreamEntry> read_group_entries(const detail::Reply& reply);
// XCLAIM's entries, without deleted ones.
std::vector<StreamEntry> claimed_entries(const detail::Reply& reply);

struct AutoClaimed {
  std::string cursor;  // "0-0": the scan of the pending entries is complete
  std::vector<StreamEntry> entries;
};
AutoClaimed auto_claimed_entries(const detail::Reply& reply);

// XPENDING's (extended form) delivery counts, by entry id.
std::map<std::string, std::uint32_t> pending_counts(const detail::Reply& reply);

// Whether stream id `a` comes before `b` ("ms-seq", each part compared as a number).
bool id_before(const std::string& a, const std::string& b);

}  // namespace docket::redis::streams

#endif  // DOCKET_TRANSPORTS_REDIS_REDIS_STREAMS_ENTRIES_H_
