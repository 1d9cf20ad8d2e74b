// The connections a Redis store keeps: at most pool_size (the URL's), opened on first
// need, handed to one caller at a time, and replaced when the server closed one.
//
//   run(command, Replay::kSafe)      a read
//   run(command, Replay::kSafeWrite) a write that means the same sent twice
//   run(command, Replay::kUnsafe)    a write that must not run twice
//
// Replicas: when the URL asks for them (replicas=N), every write (kSafeWrite, kUnsafe)
// is followed, in the same round trip on the same connection, by WAIT N
// replica_timeout_ms, and fewer acknowledgements are a ReplicationError: the write was
// applied on the server, but a failover now could lose it.
//
// Reconnection: a connection found closed while idle (the server restarted, CLIENT
// KILL, an idle timeout) is replaced before anything is sent on it, so the command
// runs once on the new one whatever its replay. A connection that fails under a
// command is dropped; the command is sent once more on a fresh connection when it is
// kSafe, and otherwise the ConnectionLostError says it may or may not have run.
//
// Thread-safety: every member may be called from many threads at once; a Lease
// belongs to the thread that took it.
#ifndef DOCKET_PROVIDERS_REDIS_REDIS_POOL_H_
#define DOCKET_PROVIDERS_REDIS_REDIS_POOL_H_

#include <condition_variable>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

#include "docket/core/error.h"
#include "providers/redis/redis_connection.h"
#include "providers/redis/redis_url.h"

namespace docket::redis::detail {

enum class Replay { kSafe, kSafeWrite, kUnsafe };

// A write the server applied that fewer replicas than the URL asks for acknowledged
// within replica_timeout_ms (WAIT). The write stands on the primary.
class ReplicationError : public InfrastructureError {
 public:
  using InfrastructureError::InfrastructureError;
};

class Pool {
 public:
  // Opens nothing yet: the first command connects (so a store opens without a server).
  explicit Pool(RedisUrl url);

  const RedisUrl& url() const noexcept { return url_; }

  // One command, or several in one round trip, on a pooled connection (see above).
  Reply run(const Command& command, Replay replay);
  std::vector<Reply> pipeline(std::span<const Command> commands, Replay replay);

 private:
  std::unique_ptr<Connection> take();
  // Throws ReplicationError when WAIT's reply counts fewer replicas than the URL asks.
  void check_replicas(const Reply& acknowledged) const;
  void give_back(std::unique_ptr<Connection> connection);

  RedisUrl url_;
  std::mutex mutex_;
  std::condition_variable available_;
  std::vector<std::unique_ptr<Connection>> idle_;
  std::size_t open_ = 0;  // connections in idle_ and handed out
};

}  // namespace docket::redis::detail

#endif  // DOCKET_PROVIDERS_REDIS_REDIS_POOL_H_
