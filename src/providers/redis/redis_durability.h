// What a Redis server's persistence gives docket's commits, read from the server
// (CONFIG GET appendonly appendfsync) and stated in words, and the refusal of a server
// that does not fsync every write when the store URL asks for it (require_fsync=always).
//
//   appendonly yes, appendfsync always   an acknowledged commit survives a server crash
//   appendonly yes, appendfsync everysec up to about a second of acknowledged commits can
//                                        be lost in a crash (a redelivery in that window
//                                        is processed again)
//   appendonly yes, appendfsync no       the operating system decides when: more can be lost
//   appendonly no                        everything since the last RDB snapshot can be lost
//
// Thread-safety: pure functions, and check_durability on the caller's connection.
#ifndef DOCKET_PROVIDERS_REDIS_REDIS_DURABILITY_H_
#define DOCKET_PROVIDERS_REDIS_REDIS_DURABILITY_H_

#include <string>

#include "providers/redis/redis_connection.h"

namespace docket::redis::detail {

struct ServerDurability {
  bool append_only = false;  // appendonly yes
  std::string fsync;         // appendfsync: "always", "everysec" or "no"

  bool fsyncs_every_write() const noexcept { return append_only && fsync == "always"; }
};

// What `durability` gives an acknowledged commit, in one sentence.
std::string describe(const ServerDurability& durability);

// Reads the server's settings on `connection` (a new one, authenticated). Throws
// ConfigurationError when the server refuses CONFIG GET (renamed or disabled, as managed
// services do), naming the server and what to do.
ServerDurability read_durability(Connection& connection, const RedisUrl& url);

// Throws ConfigurationError, before anything is written, when the URL asks
// require_fsync=always and `durability` does not fsync every write: naming the server,
// what it runs, what that loses and what to set.
void check_durability(const ServerDurability& durability, const RedisUrl& url);

}  // namespace docket::redis::detail

#endif  // DOCKET_PROVIDERS_REDIS_REDIS_DURABILITY_H_
