// docket::memory::Database, the public handle of a detail::Database.
#include <memory>
#include <utility>

#include "docket/memory/database.h"
#include "providers/memory/memory_database_access.h"

namespace docket::memory {

Database::Database(std::shared_ptr<Shared> shared) noexcept : shared_(std::move(shared)) {}

std::uint64_t Database::id() const noexcept {
  return shared_->id();
}

Database open_database(const Clock& clock) {
  return Database(std::make_shared<Database::Shared>(clock));
}

}  // namespace docket::memory
