#include "providers/sqlite/sqlite_pool.h"

#include <utility>

namespace docket::sqlite::detail {

Pool::Pool(std::string path, std::chrono::milliseconds busy_timeout, std::size_t max_connections)
    : path_(std::move(path)), busy_timeout_(busy_timeout), max_connections_(max_connections) {}

Pool::Lease::~Lease() {
  if (connection_) {
    pool_->give_back(std::move(connection_));
  }
}

Pool::Lease Pool::acquire() {
  std::unique_lock lock(mutex_);
  returned_.wait(lock, [&] { return !idle_.empty() || open_ < max_connections_; });
  if (!idle_.empty()) {
    auto connection = std::move(idle_.back());
    idle_.pop_back();
    return Lease(*this, std::move(connection));
  }
  ++open_;
  lock.unlock();
  try {
    auto connection = std::make_unique<Connection>(path_, busy_timeout_);
    connection->set_owner(this);
    return Lease(*this, std::move(connection));
  } catch (...) {
    lock.lock();
    --open_;
    returned_.notify_one();
    throw;
  }
}

void Pool::give_back(std::unique_ptr<Connection> connection) noexcept {
  if (connection->in_transaction()) {
    connection.reset();  // unusable: its transaction could not be ended
    std::lock_guard lock(mutex_);
    --open_;
  } else {
    std::lock_guard lock(mutex_);
    idle_.push_back(std::move(connection));
  }
  returned_.notify_one();
}

}  // namespace docket::sqlite::detail
