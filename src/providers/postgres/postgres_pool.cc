#include "providers/postgres/postgres_pool.h"

#include <poll.h>

#include <utility>

#include "docket/core/error.h"
#include "providers/postgres/postgres_conninfo.h"

namespace docket::postgres::detail {
namespace {

// Fit to hand out: idle in libpq's view, and nothing waiting on the socket. A session
// sitting idle gets no messages unless the server is ending it (pg_terminate_backend,
// shutdown, idle_session_timeout): libpq would only notice at the next statement.
bool usable(const Connection& conn) {
  if (!conn.idle()) {
    return false;
  }
  pollfd fd{PQsocket(conn.native()), POLLIN, 0};
  return ::poll(&fd, 1, 0) == 0;
}

}  // namespace

Pool::Lease& Pool::Lease::operator=(Lease&& other) noexcept {
  if (this != &other) {
    if (conn_ != nullptr) {
      pool_->give_back(std::move(conn_));
    }
    pool_ = other.pool_;
    conn_ = std::move(other.conn_);
  }
  return *this;
}

Pool::Lease::~Lease() {
  if (conn_ != nullptr) {
    pool_->give_back(std::move(conn_));
  }
}

Pool::Pool(std::string conninfo, PoolOptions options)
    : conninfo_(std::move(conninfo)), options_(options) {
  description_ = parse_conninfo(conninfo_).description;
  if (options_.max_size == 0) {
    throw ConfigurationError("a PostgreSQL pool for " + description_ +
                             " needs max_size of at least 1");
  }
  if (options_.acquire_timeout.count() < 0) {
    throw ConfigurationError("a PostgreSQL pool for " + description_ +
                             " needs a non-negative acquire_timeout, not " +
                             std::to_string(options_.acquire_timeout.count()) + " ms");
  }
  idle_.reserve(options_.max_size);
}

Pool::~Pool() = default;

Pool::Lease Pool::acquire() {
  return acquire(options_.acquire_timeout);
}

Pool::Lease Pool::acquire(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::unique_lock lock(mutex_);
  while (true) {
    if (!returned_.wait_until(lock, deadline,
                              [&] { return !idle_.empty() || open_ < options_.max_size; })) {
      throw InfrastructureError(
          "timed out after " + std::to_string(timeout.count()) +
          " ms waiting for a PostgreSQL connection to " + description_ + ": all " +
          std::to_string(options_.max_size) +
          " connections of the pool (max_size) are in use; raise max_size, lower the "
          "concurrency, or return connections sooner");
    }
    if (!idle_.empty()) {
      std::unique_ptr<Connection> conn = std::move(idle_.back());
      idle_.pop_back();
      lock.unlock();
      if (usable(*conn)) {
        return Lease(this, std::move(conn));
      }
      conn.reset();  // close outside the lock
      lock.lock();
      --open_;
      continue;  // the freed slot is ours to reopen
    }
    ++open_;
    lock.unlock();
    try {
      return Lease(this, std::make_unique<Connection>(conninfo_));
    } catch (...) {
      lock.lock();
      --open_;
      returned_.notify_one();
      throw;
    }
  }
}

void Pool::give_back(std::unique_ptr<Connection> conn) noexcept {
  const bool reusable = conn->idle();
  if (!reusable) {
    conn.reset();  // close outside the lock
  }
  {
    std::lock_guard lock(mutex_);
    if (reusable) {
      idle_.push_back(std::move(conn));
    } else {
      --open_;
    }
  }
  returned_.notify_one();
}

std::size_t Pool::open_connections() const {
  std::lock_guard lock(mutex_);
  return open_;
}

std::size_t Pool::idle_connections() const {
  std::lock_guard lock(mutex_);
  return idle_.size();
}

}  // namespace docket::postgres::detail
