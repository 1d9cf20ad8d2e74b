// The SQLite InboxStore and CheckpointStore over one shared Database.
#include <nlohmann/json.hpp>

#include "docket/sqlite/store.h"
#include "docket/sqlite/transaction.h"
#include "providers/sqlite/sqlite_database.h"
#include "providers/sqlite/sqlite_options.h"
#include "providers/sqlite/sqlite_schema.h"
#include "providers/sqlite/sqlite_unit_of_work.h"

namespace docket::sqlite {
namespace {

using detail::Database;

std::int64_t micros(Timestamp t) {
  return t.time_since_epoch().count();
}

class SqliteCheckpointStore final : public CheckpointStore {
 public:
  explicit SqliteCheckpointStore(Database& database) : database_(database) {}

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

  // One autocommit statement: its own transaction, never the caller's.
  void do_set(const std::string& tenant, std::string_view consumer_id,
              std::string_view position) override {
    database_.connect()->exec(
        "INSERT INTO docket_consumer_checkpoints (tenant, consumer_id, position, updated_at) "
        "VALUES (?1, ?2, ?3, ?4) ON CONFLICT (tenant, consumer_id) DO UPDATE SET "
        "position = excluded.position, updated_at = excluded.updated_at",
        {tenant, std::string(consumer_id), std::string(position), micros(database_.clock().now())});
  }

 private:
  Database& database_;
};

class SqliteInboxStore final : public InboxStore {
 public:
  SqliteInboxStore(const StoreOptions& options, const Clock& clock)
      : database_(options, clock, detail::migrate_schema), checkpoints_(database_) {}

  std::string_view provider_name() const noexcept override { return "sqlite"; }
  TransactionType transaction_type() const noexcept override {
    return TransactionType::of<sqlite::Transaction>();
  }
  void migrate() override { database_.migrate(); }
  std::unique_ptr<UnitOfWork> begin() override {
    return std::make_unique<detail::SqliteUnitOfWork>(database_);
  }
  bool is_recorded(const DedupKey& key) override {
    return detail::dedup_row_exists(*database_.connect(), key);
  }
  CheckpointStore& checkpoints() noexcept override { return checkpoints_; }

 protected:
  // One anti-join statement over the ids passed as a JSON array; json_each's key is
  // the array index, which keeps the input order.
  std::vector<std::string> do_filter_unprocessed(
      const std::string& tenant, std::string_view consumer_id,
      std::span<const std::string> message_ids) override {
    const std::string ids = nlohmann::json(message_ids).dump();
    const auto rows = database_.connect()->query(
        "SELECT ids.value FROM json_each(?1) AS ids WHERE NOT EXISTS (SELECT 1 FROM "
        "docket_inbox_messages AS m WHERE m.tenant = ?2 AND m.consumer_id = ?3 AND "
        "m.message_id = ids.value) ORDER BY ids.key",
        {ids, tenant, std::string(consumer_id)});
    std::vector<std::string> unprocessed;
    unprocessed.reserve(rows.size());
    for (const auto& row : rows) {
      unprocessed.push_back(std::get<std::string>(row.at(0)));
    }
    return unprocessed;
  }

  std::size_t do_purge_batch(Timestamp cutoff, std::size_t limit) override {
    auto connection = database_.connect();
    return static_cast<std::size_t>(connection->exec(
        "DELETE FROM docket_inbox_messages WHERE (tenant, consumer_id, message_id) IN "
        "(SELECT tenant, consumer_id, message_id FROM docket_inbox_messages "
        "WHERE processed_at < ?1 ORDER BY processed_at LIMIT ?2)",
        {micros(cutoff), static_cast<std::int64_t>(limit)}));
  }

 private:
  Database database_;
  SqliteCheckpointStore checkpoints_;
};

}  // namespace

std::unique_ptr<InboxStore> open_store(StoreOptions options, const Clock& clock) {
  return std::make_unique<SqliteInboxStore>(
      detail::checked_options(std::move(options), "SQLite store"), clock);
}

}  // namespace docket::sqlite
