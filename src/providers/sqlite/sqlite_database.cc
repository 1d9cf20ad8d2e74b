#include "providers/sqlite/sqlite_database.h"

#include <sqlite3.h>

#include <filesystem>

#include "docket/error.h"
#include "providers/sqlite/sqlite_schema.h"

namespace docket::sqlite::detail {
namespace {

std::string canonical(const std::string& path) {
  std::error_code ignored;  // a path that cannot be resolved is compared as given
  const auto resolved = std::filesystem::weakly_canonical(path, ignored);
  return resolved.empty() ? path : resolved.string();
}

}  // namespace

void validate_store_options(StoreOptions& options) {
  if (options.path.empty()) {
    throw ConfigurationError(
        "SQLite store: the database path is empty; pass a file path or \":memory:\"");
  }
  if (options.max_connections == 0) {
    throw ConfigurationError("SQLite store: max_connections is 0; allow at least 1");
  }
  if (options.path == ":memory:") {
    options.max_connections = 1;  // every connection to ":memory:" is its own database
  }
}

Database::Database(const StoreOptions& options, const Clock& clock)
    : pool_(options.path, options.busy_timeout, options.max_connections),
      canonical_path_(options.path == ":memory:" ? "" : canonical(options.path)),
      clock_(clock) {}

bool Database::holds(const Connection& connection) const {
  if (connection.owner() == &pool_) {
    return true;
  }
  const char* file = sqlite3_db_filename(connection.native(), "main");
  return !canonical_path_.empty() && file != nullptr && *file != '\0' &&
         canonical(file) == canonical_path_;
}

Pool::Lease Database::connect() {
  if (!migrated_.load(std::memory_order_acquire)) {
    migrate();
  }
  return pool_.acquire();
}

void Database::migrate() {
  // A failed migration leaves migrated_ false, so the next use tries again.
  std::lock_guard lock(migrate_mutex_);
  auto lease = pool_.acquire();
  migrate_schema(*lease);
  migrated_.store(true, std::memory_order_release);
}

}  // namespace docket::sqlite::detail
