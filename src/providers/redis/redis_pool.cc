// The Redis connection pool (redis_pool.h).
#include "providers/redis/redis_pool.h"

#include <utility>

namespace docket::redis::detail {

Pool::Pool(RedisUrl url) : url_(std::move(url)) {}

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
  for (int attempt = 0;; ++attempt) {
    std::unique_ptr<Connection> connection = take();
    try {
      std::vector<Reply> replies = connection->pipeline(commands);
      give_back(std::move(connection));
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
