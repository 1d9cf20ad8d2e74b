// The PostgreSQL InboxStore over one shared Database, with its checkpoints
// (checkpoint_store.cc).
#include <string>

#include "docket/postgres/store.h"
#include "docket/postgres/transaction.h"
#include "docket/spi/inbox_unit.h"
#include "providers/kit/time_codec.h"
#include "providers/postgres/postgres_capabilities.h"
#include "providers/postgres/postgres_checkpoint_store.h"
#include "providers/postgres/postgres_database.h"
#include "providers/postgres/postgres_exec.h"
#include "providers/postgres/postgres_inbox_schema.h"
#include "providers/postgres/postgres_outbox_schema.h"
#include "providers/postgres/postgres_text_array.h"
#include "providers/postgres/postgres_unique_violation.h"
#include "providers/postgres/postgres_unit_of_work.h"

namespace docket::postgres::detail {
namespace {

class PostgresInboxStore final : public InboxStore {
 public:
  PostgresInboxStore(const StoreOptions& options, const Clock& clock)
      : database_(options, clock, {inbox_schema(), outbox_schema()}),
        checkpoints_(open_checkpoints(database_)) {}

  std::string_view provider_name() const noexcept override { return "postgres"; }
  StoreCapabilities capabilities() const noexcept override { return kPostgresCapabilities; }
  TransactionType transaction_type() const noexcept override {
    return TransactionType::of<postgres::Transaction>();
  }
  void migrate() override { database_.migrate(); }
  std::unique_ptr<spi::InboxUnit> begin_unit() override {
    return std::make_unique<PostgresUnitOfWork>(database_);
  }
  bool is_recorded(const DedupKey& key) override {
    return dedup_row_exists(*database_.connect(), key);
  }
  CheckpointStore& checkpoints() noexcept override { return *checkpoints_; }

 protected:
  // One anti-join statement over the ids bound as one text[] literal; WITH ORDINALITY
  // numbers them so the input order is kept.
  std::vector<std::string> do_filter_unprocessed(
      const std::string& tenant, std::string_view consumer_id,
      std::span<const std::string> message_ids) override {
    const std::string ids = text_array_literal(message_ids);
    auto lease = database_.connect();
    const auto result = exec_prepared(
        *lease, "docket_inbox_filter",
        "SELECT ids.id FROM unnest($1::text[]) WITH ORDINALITY AS ids (id, ord) "
        "WHERE NOT EXISTS (SELECT 1 FROM docket_inbox_messages AS m WHERE m.tenant = $2 "
        "AND m.consumer_id = $3 AND m.message_id = ids.id) ORDER BY ids.ord",
        ids, tenant, consumer_id);
    std::vector<std::string> unprocessed;
    unprocessed.reserve(static_cast<std::size_t>(result.rows()));
    for (int row = 0; row < result.rows(); ++row) {
      unprocessed.emplace_back(result.text(row, 0));
    }
    return unprocessed;
  }

  // One autocommit statement per batch, so live dispatch is never blocked for long.
  std::size_t do_purge_batch(Timestamp cutoff, std::size_t limit) override {
    auto lease = database_.connect();
    return static_cast<std::size_t>(
        exec_prepared(*lease, "docket_inbox_purge",
                      "DELETE FROM docket_inbox_messages WHERE ctid IN (SELECT ctid FROM "
                      "docket_inbox_messages WHERE processed_at < 'epoch'::timestamptz + $1 * "
                      "interval '1 microsecond' LIMIT $2)",
                      kit::to_micros(cutoff), limit)
            .affected_rows());
  }

  // One DELETE: a range of the primary key (tenant, consumer_id, ...) for one tenant,
  // the table for every tenant.
  std::size_t do_purge_consumer_batch(const std::string* tenant, std::string_view consumer_id,
                                      std::size_t limit) override {
    auto lease = database_.connect();
    const Result deleted =
        tenant != nullptr
            ? exec_prepared(*lease, "docket_inbox_purge_tenant_consumer",
                            "DELETE FROM docket_inbox_messages WHERE ctid IN (SELECT ctid FROM "
                            "docket_inbox_messages WHERE tenant = $1 AND consumer_id = $2 "
                            "LIMIT $3)",
                            *tenant, consumer_id, limit)
            : exec_prepared(*lease, "docket_inbox_purge_consumer",
                            "DELETE FROM docket_inbox_messages WHERE ctid IN (SELECT ctid FROM "
                            "docket_inbox_messages WHERE consumer_id = $1 LIMIT $2)",
                            consumer_id, limit);
    return static_cast<std::size_t>(deleted.affected_rows());
  }

 private:
  Database database_;
  std::unique_ptr<CheckpointStore> checkpoints_;
};

}  // namespace

}  // namespace docket::postgres::detail

namespace docket::postgres {

std::unique_ptr<InboxStore> open_store(StoreOptions options, const Clock& clock) {
  return std::make_unique<detail::PostgresInboxStore>(options, clock);
}

std::unique_ptr<InboxStore> open_store(std::string conninfo, const Clock& clock) {
  return open_store(StoreOptions{.conninfo = std::move(conninfo)}, clock);
}

}  // namespace docket::postgres
