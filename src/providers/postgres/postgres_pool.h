// Pool: a fixed-size set of Connections to one server, shared between threads.
//
// acquire() hands out a Lease, the exclusive use of one connection until the Lease is
// destroyed; it opens connections lazily up to max_size and, when all are leased,
// blocks until one comes back or acquire_timeout passes, then throws InfrastructureError
// saying so.
//
// Invariants: at most max_size connections exist (idle + leased + being opened). A
// connection handed out is healthy, outside any transaction block, and has no unread
// input from the server: one the server closed or terminated while it sat idle is
// discarded at acquire and replaced by a new one. A connection returned broken (libpq
// saw it fail) or still inside a transaction block is discarded, never reused.
// Prepared statements live with their connection and go with it.
//
// Thread-safety: every member of Pool may be called from any thread at once. A Lease
// (and the Connection it gives) belongs to one thread at a time. The Pool must outlive
// every Lease taken from it.
#ifndef DOCKET_PROVIDERS_POSTGRES_POOL_H_
#define DOCKET_PROVIDERS_POSTGRES_POOL_H_

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "providers/postgres/postgres_connection.h"

namespace docket::postgres::detail {

struct PoolOptions {
  std::size_t max_size = 10;
  std::chrono::milliseconds acquire_timeout{30'000};
};

class Pool {
 public:
  class Lease {
   public:
    Lease(Lease&& other) noexcept = default;
    Lease& operator=(Lease&& other) noexcept;
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    ~Lease();

    Connection& operator*() const noexcept { return *conn_; }
    Connection* operator->() const noexcept { return conn_.get(); }
    Connection& connection() const noexcept { return *conn_; }

   private:
    friend class Pool;
    Lease(Pool* pool, std::unique_ptr<Connection> conn) noexcept
        : pool_(pool), conn_(std::move(conn)) {}

    Pool* pool_;
    std::unique_ptr<Connection> conn_;
  };

  // Checks the connection string (ConfigurationError when libpq cannot parse it) and the
  // options (ConfigurationError for max_size 0 or a negative timeout); connects lazily.
  explicit Pool(std::string conninfo, PoolOptions options = {});
  ~Pool();

  Pool(const Pool&) = delete;
  Pool& operator=(const Pool&) = delete;

  Lease acquire();
  Lease acquire(std::chrono::milliseconds timeout);

  std::size_t max_size() const noexcept { return options_.max_size; }
  // Connections that exist now: idle, leased, or being opened.
  std::size_t open_connections() const;
  std::size_t idle_connections() const;

 private:
  void give_back(std::unique_ptr<Connection> conn) noexcept;

  const std::string conninfo_;
  const PoolOptions options_;
  std::string description_;

  mutable std::mutex mutex_;
  std::condition_variable returned_;
  std::vector<std::unique_ptr<Connection>> idle_;  // guarded by mutex_
  std::size_t open_ = 0;                           // guarded by mutex_
};

}  // namespace docket::postgres::detail

#endif  // DOCKET_PROVIDERS_POSTGRES_POOL_H_
