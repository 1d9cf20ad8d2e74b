// What docket's own memory stores, and nothing else, may do with a docket::memory::Database
// handle: reach the detail::Database every copy of it shares. The public
// header befriends this class and leaves the shared type opaque (Database::Shared).
#ifndef DOCKET_PROVIDERS_MEMORY_MEMORY_DATABASE_ACCESS_H_
#define DOCKET_PROVIDERS_MEMORY_MEMORY_DATABASE_ACCESS_H_

#include <memory>

#include "docket/memory/database.h"
#include "providers/memory/memory_database.h"

namespace docket::memory {

// The database a handle shares: a detail::Database and nothing more, so a handle's
// shared pointer converts to the detail::Database the stores keep.
class Database::Shared final : public detail::Database {
 public:
  using detail::Database::Database;
};

class DatabaseAccess {
 public:
  DatabaseAccess() = delete;

  // The database `database` shares, for a store opened on it to keep.
  static std::shared_ptr<detail::Database> state(const memory::Database& database) noexcept {
    return database.shared_;
  }
};

}  // namespace docket::memory

#endif  // DOCKET_PROVIDERS_MEMORY_MEMORY_DATABASE_ACCESS_H_
