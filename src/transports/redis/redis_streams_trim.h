// Trimming a stream without losing what a group has not read: one Lua script (atomic,
// so that no group reads or acknowledges between the reckoning and the trim) takes the
// lowest id any consumer group of the stream still needs, which is, per group, its
// oldest pending (delivered, unacknowledged) entry, or else its last-delivered id, and
// trims the stream with XTRIM MINID ~ to it: only entries below it go, and `~` lets
// Redis drop only whole macro nodes (cheap; never an id at or above it). A stream
// without a group is never trimmed (a group created later reads it from the start).
// The same script deletes the consumers that hold nothing pending and were idle for
// longer than `forget_after` (a subscription whose process died leaves its name in the
// group; a live one that is deleted comes back with its next XREADGROUP, and it held
// nothing to lose).
//
// Thread-safety: a function over one connection, which its caller owns.
#ifndef DOCKET_TRANSPORTS_REDIS_REDIS_STREAMS_TRIM_H_
#define DOCKET_TRANSPORTS_REDIS_REDIS_STREAMS_TRIM_H_

#include <chrono>
#include <string_view>

#include "providers/redis/redis_connection.h"

namespace docket::redis::streams {

// The entries XTRIM removed (0 for a missing key). Throws InfrastructureError naming
// the stream when Redis refuses (a key of another type), ConnectionLostError.
long long trim_read_entries(detail::Connection& connection, std::string_view stream,
                            std::chrono::milliseconds forget_after);

}  // namespace docket::redis::streams

#endif  // DOCKET_TRANSPORTS_REDIS_REDIS_STREAMS_TRIM_H_
