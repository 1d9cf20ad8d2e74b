// A small pool of connections to one database: each concurrent caller gets its own
// connection, at most `max_connections` are open, further callers wait for a return.
// A connection returned with a transaction still open (a rollback that failed) is
// closed rather than reused.
//
// Thread-safety: acquire() may be called from many threads.
#ifndef DOCKET_PROVIDERS_SQLITE_SQLITE_POOL_H_
#define DOCKET_PROVIDERS_SQLITE_SQLITE_POOL_H_

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "providers/sqlite/sqlite_connection.h"

namespace docket::sqlite::detail {

class Pool {
 public:
  Pool(std::string path, std::chrono::milliseconds busy_timeout, std::size_t max_connections);

  // A connection on loan; returned to the pool when the lease ends.
  class Lease {
   public:
    Lease(Pool& pool, std::unique_ptr<Connection> connection) noexcept
        : pool_(&pool), connection_(std::move(connection)) {}
    ~Lease();
    Lease(Lease&& other) noexcept = default;
    Lease& operator=(Lease&&) = delete;
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;

    Connection& operator*() const noexcept { return *connection_; }
    Connection* operator->() const noexcept { return connection_.get(); }

   private:
    Pool* pool_;
    std::unique_ptr<Connection> connection_;
  };

  Lease acquire();
  const std::string& path() const noexcept { return path_; }

 private:
  void give_back(std::unique_ptr<Connection> connection) noexcept;

  const std::string path_;
  const std::chrono::milliseconds busy_timeout_;
  const std::size_t max_connections_;
  std::mutex mutex_;
  std::condition_variable returned_;
  std::vector<std::unique_ptr<Connection>> idle_;
  std::size_t open_ = 0;
};

}  // namespace docket::sqlite::detail

#endif  // DOCKET_PROVIDERS_SQLITE_SQLITE_POOL_H_
