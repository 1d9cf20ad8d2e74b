// The Redis connection pool (redis_pool.h).
#include "providers/redis/redis_pool.h"

#include <string>
#include <utility>

namespace docket::redis::detail {

Pool::Pool(RedisUrl url) : url_(std::move(url)) {}

void Pool::check_replicas(const Reply& acknowledged) const {
  const long long count = acknowledged.integer();
  if (count < url_.replicas) {
    throw ReplicationError(
        "Redis at " + url_.server() + " applied the write, but only " + std::to_string(count) +
        " of the " + std::to_string(url_.replicas) +
        " replicas the store URL asks for (replicas=" + std::to_string(url_.replicas) +
        ") acknowledged it within " + std::to_string(url_.replica_timeout_ms) +
        " ms: it stands on the primary, and a failover now could lose it. Check the "
        "replicas (INFO replication), or lower replicas= or raise replica_timeout_ms=");
  }
}

std::unique_ptr<Connection> Pool::take() {
  std::unique_lock lock(mutex_);
  available_.wait(lock, [this] { return !idle_.empty() || open_ < url_.pool_size; });
  if (!idle_.empty()) {
    std::unique_ptr<Connection> connection = std::move(idle_.back());
    idle_.pop_back();
    if (!connection->broken()) {
      return connection;
    }
    --open_;  // closed by the server while idle: replaced below
  }
  ++open_;
  lock.unlock();
  try {
    return std::make_unique<Connection>(url_);
  } catch (...) {
    lock.lock();
    --open_;
    available_.notify_one();
    throw;
  }
}

void Pool::give_back(std::unique_ptr<Connection> connection) {
  std::lock_guard lock(mutex_);
  if (connection && !connection->broken()) {
    idle_.push_back(std::move(connection));
  } else {
    --open_;
  }
  available_.notify_one();
}

Reply Pool::run(const Command& command, Replay replay) {
  std::vector<Reply> replies = pipeline(std::span<const Command>(&command, 1), replay);
  return std::move(replies.front());
}

std::vector<Reply> Pool::pipeline(std::span<const Command> commands, Replay replay) {
  const bool waits = replay != Replay::kSafe && url_.replicas > 0;
  std::vector<Command> waiting;
  if (waits) {
    waiting.assign(commands.begin(), commands.end());
    waiting.push_back(
        {"WAIT", std::to_string(url_.replicas), std::to_string(url_.replica_timeout_ms)});
  }
  const std::span<const Command> sent = waits ? std::span<const Command>(waiting) : commands;
  for (int attempt = 0;; ++attempt) {
    std::unique_ptr<Connection> connection = take();
    try {
      std::vector<Reply> replies = connection->pipeline(sent);
      give_back(std::move(connection));
      if (waits) {
        const Reply acknowledged = std::move(replies.back());
        replies.pop_back();
        check_replicas(acknowledged);
      }
      return replies;
    } catch (const ConnectionLostError&) {
      give_back(nullptr);
      if (replay == Replay::kUnsafe || attempt > 0) {
        throw;
      }
    } catch (...) {
      give_back(nullptr);
      throw;
    }
  }
}

}  // namespace docket::redis::detail
