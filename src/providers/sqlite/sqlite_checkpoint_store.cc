// The SQLite CheckpointStore: one autocommit statement per call, so a checkpoint is
// never part of a caller's unit of work.
#include "providers/sqlite/sqlite_checkpoint_store.h"

#include <utility>
#include <variant>
#include <vector>

#include "docket/sqlite/checkpoint_store.h"
#include "providers/kit/checkpoint_store_listing.h"
#include "providers/kit/time_codec.h"
#include "providers/sqlite/sqlite_options.h"
#include "providers/sqlite/sqlite_schema.h"

namespace docket::sqlite {
namespace {

using detail::Database;

class SqliteCheckpointStore final : public CheckpointStore {
 public:
  // Borrows `database`.
  explicit SqliteCheckpointStore(Database& database) : database_(database) {}
  // Owns `database`.
  explicit SqliteCheckpointStore(std::unique_ptr<Database> database)
      : owned_(std::move(database)), database_(*owned_) {}

 protected:
  std::optional<std::string> do_get(const std::string& tenant,
                                    std::string_view consumer_id) override {
    auto rows = database_.connect()->query(
        "SELECT position FROM docket_consumer_checkpoints WHERE tenant = ?1 AND consumer_id = ?2",
        {tenant, std::string(consumer_id)});
    if (rows.empty()) {
      return std::nullopt;
    }
    return std::get<std::string>(rows[0].at(0));
  }

  void do_set(const std::string& tenant, std::string_view consumer_id,
              std::string_view position) override {
    database_.connect()->exec(
        "INSERT INTO docket_consumer_checkpoints (tenant, consumer_id, position, updated_at) "
        "VALUES (?1, ?2, ?3, ?4) ON CONFLICT (tenant, consumer_id) DO UPDATE SET "
        "position = excluded.position, updated_at = excluded.updated_at",
        {tenant, std::string(consumer_id), std::string(position),
         kit::to_micros(database_.clock().now())});
  }

  std::vector<CheckpointEntry> do_list(const CheckpointListRequest& request) override {
    const kit::SqlListingQuery query = kit::checkpoint_list_sql(request, '?', "updated_at");
    std::vector<Value> params;
    params.reserve(query.params.size());
    for (const auto& param : query.params) {
      std::visit([&](const auto& value) { params.emplace_back(value); }, param);
    }
    std::vector<CheckpointEntry> entries;
    for (const Row& row : database_.connect()->query(query.sql, params)) {
      entries.push_back(
          CheckpointEntry{.tenant = TenantId::from_stored(std::get<std::string>(row.at(0))),
                          .consumer_id = std::get<std::string>(row.at(1)),
                          .position = std::get<std::string>(row.at(2)),
                          .updated_at = kit::from_micros(std::get<std::int64_t>(row.at(3)))});
    }
    return entries;
  }

 private:
  std::unique_ptr<Database> owned_;  // null when borrowed
  Database& database_;
};

}  // namespace

std::unique_ptr<CheckpointStore> detail::open_checkpoints(Database& database) {
  return std::make_unique<SqliteCheckpointStore>(database);
}

std::unique_ptr<CheckpointStore> open_checkpoint_store(StoreOptions options, const Clock& clock) {
  return std::make_unique<SqliteCheckpointStore>(std::make_unique<Database>(
      detail::checked_options(std::move(options), "SQLite checkpoint store"), clock,
      detail::migrate_schema));
}

}  // namespace docket::sqlite
