// docket::memory::Database, the public handle of a detail::Database.
#include <memory>
#include <utility>

#include "docket/memory/database.h"
#include "providers/memory/memory_database.h"

namespace docket::memory {

Database::Database(std::shared_ptr<detail::Database> state) noexcept : state_(std::move(state)) {}

std::uint64_t Database::id() const noexcept {
  return state_->id();
}

Database open_database(const Clock& clock) {
  return Database(std::make_shared<detail::Database>(clock));
}

}  // namespace docket::memory
