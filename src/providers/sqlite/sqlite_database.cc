#include "providers/sqlite/sqlite_database.h"

#include <sqlite3.h>

#include <filesystem>

#include "docket/core/error.h"
#include "providers/kit/wake_signals.h"

namespace docket::sqlite::detail {
namespace {

std::string canonical(const std::string& path) {
  std::error_code ignored;  // a path that cannot be resolved is compared as given
  const auto resolved = std::filesystem::weakly_canonical(path, ignored);
  return resolved.empty() ? path : resolved.string();
}

std::shared_ptr<WakeSignal> signal_of(std::string_view what, const std::string& file) {
  if (file.empty())
    return std::make_shared<WakeSignal>();  // ":memory:": no other store shares it
  return kit::wake_signal_of("sqlite " + std::string(what) + ":" + file);
}

}  // namespace

Database::Database(const StoreOptions& options, const Clock& clock, Migration migration)
    : pool_(options.path, options.busy_timeout, options.max_connections),
      canonical_path_(options.path == ":memory:" ? "" : canonical(options.path)),
      outbox_staged_(signal_of("outbox", canonical_path_)),
      events_appended_(signal_of("events", canonical_path_)),
      clock_(clock),
      migration_(migration) {}

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
  migration_(*lease);
  migrated_.store(true, std::memory_order_release);
}

}  // namespace docket::sqlite::detail
