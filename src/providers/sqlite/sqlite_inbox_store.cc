// The SQLite InboxStore over one shared Database, with its checkpoints
// (sqlite_checkpoint_store.cc).
#include <nlohmann/json.hpp>

#include "docket/spi/inbox_unit.h"
#include "docket/sqlite/store.h"
#include "docket/sqlite/transaction.h"
#include "providers/kit/time_codec.h"
#include "providers/sqlite/sqlite_checkpoint_store.h"
#include "providers/sqlite/sqlite_database.h"
#include "providers/sqlite/sqlite_options.h"
#include "providers/sqlite/sqlite_schema.h"
#include "providers/sqlite/sqlite_unit_of_work.h"

namespace docket::sqlite {
namespace {

using detail::Database;

class SqliteInboxStore final : public InboxStore {
 public:
  SqliteInboxStore(const StoreOptions& options, const Clock& clock)
      : database_(options, clock, detail::migrate_schema),
        checkpoints_(detail::open_checkpoints(database_)) {}

  std::string_view provider_name() const noexcept override { return "sqlite"; }
  StoreCapabilities capabilities() const noexcept override { return database_.capabilities(); }
  TransactionType transaction_type() const noexcept override {
    return TransactionType::of<sqlite::Transaction>();
  }
  void migrate() override { database_.migrate(); }
  std::unique_ptr<spi::InboxUnit> begin_unit() override {
    return std::make_unique<detail::SqliteUnitOfWork>(database_);
  }
  bool is_recorded(const DedupKey& key) override {
    return detail::dedup_row_exists(*database_.connect(), key);
  }
  CheckpointStore& checkpoints() noexcept override { return *checkpoints_; }

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
        {kit::to_micros(cutoff), static_cast<std::int64_t>(limit)}));
  }

  // One DELETE: a range of the primary key (tenant, consumer_id, ...) for one tenant,
  // the table for every tenant.
  std::size_t do_purge_consumer_batch(const std::string* tenant, std::string_view consumer_id,
                                      std::size_t limit) override {
    auto connection = database_.connect();
    const auto rows = static_cast<std::int64_t>(limit);
    return static_cast<std::size_t>(
        tenant != nullptr
            ? connection->exec(
                  "DELETE FROM docket_inbox_messages WHERE (tenant, consumer_id, message_id) IN "
                  "(SELECT tenant, consumer_id, message_id FROM docket_inbox_messages "
                  "WHERE tenant = ?1 AND consumer_id = ?2 LIMIT ?3)",
                  {*tenant, std::string(consumer_id), rows})
            : connection->exec(
                  "DELETE FROM docket_inbox_messages WHERE (tenant, consumer_id, message_id) IN "
                  "(SELECT tenant, consumer_id, message_id FROM docket_inbox_messages "
                  "WHERE consumer_id = ?1 LIMIT ?2)",
                  {std::string(consumer_id), rows}));
  }

 private:
  Database database_;
  std::unique_ptr<CheckpointStore> checkpoints_;
};

}  // namespace

std::unique_ptr<InboxStore> open_store(StoreOptions options, const Clock& clock) {
  return std::make_unique<SqliteInboxStore>(
      detail::checked_options(std::move(options), "SQLite store"), clock);
}

}  // namespace docket::sqlite
