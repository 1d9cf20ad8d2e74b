// The SQLite SagaStore: one row per saga in docket_sagas. Its own saves run in a BEGIN
// IMMEDIATE transaction of their own, saves and loads inside an SQLite unit of work in
// that unit's transaction; both through the same SQL (save_saga, load_saga). list is
// one SELECT in key order behind the page's position (kit/saga_listing.h), on the
// primary key or, for active sagas, the partial index docket_sagas_active.
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "docket/core/error.h"
#include "docket/sqlite/saga_store.h"
#include "docket/sqlite/transaction.h"
#include "providers/kit/saga_listing.h"
#include "providers/kit/store_kind_capabilities.h"
#include "providers/kit/time_codec.h"
#include "providers/sqlite/sqlite_database.h"
#include "providers/sqlite/sqlite_eventsourcing_schema.h"
#include "providers/sqlite/sqlite_immediate_transaction.h"
#include "providers/sqlite/sqlite_join.h"
#include "providers/sqlite/sqlite_options.h"
#include "providers/sqlite/sqlite_transaction_access.h"

namespace docket::sqlite {
namespace {

Timestamp timestamp_at(const Row& row, std::size_t column) {
  return kit::from_micros(std::get<std::int64_t>(row.at(column)));
}

class SqliteSagaStore final : public SagaStore {
 public:
  SqliteSagaStore(const StoreOptions& options, const Clock& clock)
      : SagaStore(clock), database_(options, clock, detail::migrate_eventsourcing_schema) {
    database_.migrate();
    file_ = detail::database_file(database_.connect()->native());
  }

  std::string_view provider_name() const noexcept override { return "sqlite"; }
  StoreCapabilities capabilities() const noexcept override {
    return kit::saga_store_capabilities(database_.capabilities());
  }
  std::optional<TransactionType> transaction_type() const noexcept override {
    return TransactionType::of<sqlite::Transaction>();
  }

 private:
  // BEGIN IMMEDIATE: the version read here is still the saga's when the write commits.
  SagaSaveResult do_save(const SaveRequest& request) override {
    auto connection = database_.connect();
    TransactionAccess::OnConnection on_connection(*connection);
    Transaction& tx = on_connection.transaction();
    detail::ImmediateTransaction own(*connection);
    SagaSaveResult result = save_saga(tx, request);
    if (result.succeeded()) {
      own.commit();
    }
    return result;
  }

  // The unit of work is BEGIN IMMEDIATE too, so the same holds until it commits.
  SagaSaveResult do_save_in(HandlerTransaction& transaction, const SaveRequest& request) override {
    return save_saga(joinable(transaction), request);
  }

  std::optional<SagaRecord> do_load(const SagaId& saga) override {
    auto connection = database_.connect();
    TransactionAccess::OnConnection on_connection(*connection);
    Transaction& tx = on_connection.transaction();
    return load_saga(tx, saga);
  }

  std::optional<SagaRecord> do_load_in(HandlerTransaction& transaction,
                                       const SagaId& saga) override {
    return load_saga(joinable(transaction), saga);
  }

  SagaPage do_list(const SagaListRequest& request) override {
    const kit::SqlListingQuery query = kit::saga_list_sql(request, '?');
    std::vector<Value> params;
    params.reserve(query.params.size());
    for (const auto& param : query.params) {
      std::visit([&](const auto& value) { params.emplace_back(value); }, param);
    }
    auto connection = database_.connect();
    std::vector<SagaSummary> sagas;
    for (const Row& row : connection->query(query.sql, params)) {
      std::optional<std::int64_t> completed_at;
      if (!std::holds_alternative<std::nullptr_t>(row.at(6))) {
        completed_at = std::get<std::int64_t>(row.at(6));
      }
      sagas.push_back(kit::saga_list_row(
          std::get<std::string>(row.at(0)), std::get<std::string>(row.at(1)),
          std::get<std::string>(row.at(2)), std::get<std::int64_t>(row.at(3)),
          std::get<std::int64_t>(row.at(4)), std::get<std::int64_t>(row.at(5)), completed_at));
    }
    return kit::saga_list_page(std::move(sagas), request.limit);
  }

  // One DELETE statement: its own short transaction, at most batch_size rows.
  std::size_t do_purge_completed_batch(Timestamp cutoff, std::size_t batch_size,
                                       const TenantId* tenant) override {
    auto connection = database_.connect();
    const auto limit = static_cast<std::int64_t>(batch_size);
    const std::int64_t deleted =
        tenant == nullptr
            ? connection->exec(
                  "DELETE FROM docket_sagas WHERE rowid IN (SELECT rowid FROM docket_sagas "
                  "WHERE completed_at IS NOT NULL AND completed_at < ?1 "
                  "ORDER BY completed_at LIMIT ?2)",
                  {kit::to_micros(cutoff), limit})
            : connection->exec(
                  "DELETE FROM docket_sagas WHERE rowid IN (SELECT rowid FROM docket_sagas "
                  "WHERE tenant = ?3 AND completed_at IS NOT NULL AND completed_at < ?1 "
                  "ORDER BY completed_at LIMIT ?2)",
                  {kit::to_micros(cutoff), limit, tenant->value()});
    return static_cast<std::size_t>(deleted);
  }

  // The version check and the write, in the open transaction of `tx`, which stays open.
  // One INSERT or UPDATE: a failure leaves nothing of this call behind.
  SagaSaveResult save_saga(Transaction& tx, const SaveRequest& request) const {
    const SagaId& saga = request.saga;
    if (!TransactionAccess::connection(tx).in_transaction()) {
      throw InfrastructureError("SQLite saga store: save of " + saga.describe() +
                                " needs an open transaction, and the connection has none (a "
                                "handler must not COMMIT or ROLLBACK through native()); nothing "
                                "was written");
    }
    const auto rows = tx.query(
        "SELECT version, completed_at FROM docket_sagas "
        "WHERE tenant = ?1 AND saga_type = ?2 AND saga_id = ?3",
        {saga.tenant().value(), saga.saga_type(), saga.saga_id()});
    const std::int64_t current = rows.empty() ? kNewSaga : std::get<std::int64_t>(rows[0].at(0));
    if (current != request.expected_version) {
      return VersionConflict{.subject = saga.describe(),
                             .expected_version = request.expected_version,
                             .actual_version = current};
    }
    if (!rows.empty() && !std::holds_alternative<std::nullptr_t>(rows[0].at(1))) {
      throw completed_saga_error(saga, timestamp_at(rows[0], 1));
    }
    const bool completing = request.status == SagaStatus::kCompleted;
    const std::int64_t version = current + 1;
    std::vector<Value> params{saga.tenant().value(),
                              saga.saga_type(),
                              saga.saga_id(),
                              version,
                              std::string(request.state),
                              std::int64_t{completing},
                              kit::to_micros(request.now),
                              nullptr};
    if (completing) {
      params[7] = kit::to_micros(request.now);  // completed_at
    }
    tx.exec(rows.empty() ? "INSERT INTO docket_sagas (tenant, saga_type, saga_id, version, state, "
                           "completed, started_at, updated_at, completed_at) VALUES (?1, ?2, ?3, "
                           "?4, CAST(?5 AS BLOB), ?6, ?7, ?7, ?8)"
                         : "UPDATE docket_sagas SET version = ?4, state = CAST(?5 AS BLOB), "
                           "completed = ?6, updated_at = ?7, completed_at = ?8 "
                           "WHERE tenant = ?1 AND saga_type = ?2 AND saga_id = ?3",
            params);
    return SagaSaved{.new_version = version};
  }

  static std::optional<SagaRecord> load_saga(Transaction& tx, const SagaId& saga) {
    const auto rows = tx.query(
        "SELECT version, state, completed, started_at, updated_at, completed_at "
        "FROM docket_sagas WHERE tenant = ?1 AND saga_type = ?2 AND saga_id = ?3",
        {saga.tenant().value(), saga.saga_type(), saga.saga_id()});
    if (rows.empty()) {
      return std::nullopt;
    }
    const Row& row = rows[0];
    SagaRecord record{.version = std::get<std::int64_t>(row.at(0)),
                      .state = std::get<std::string>(row.at(1)),
                      .status = std::get<std::int64_t>(row.at(2)) != 0 ? SagaStatus::kCompleted
                                                                       : SagaStatus::kActive,
                      .started_at = timestamp_at(row, 3),
                      .updated_at = timestamp_at(row, 4),
                      .completed_at = {}};
    if (!std::holds_alternative<std::nullptr_t>(row.at(5))) {
      record.completed_at = timestamp_at(row, 5);
    }
    return record;
  }

  // `transaction` as an SQLite transaction on this store's database file, or
  // ConfigurationError: a saga saved on another file would commit where this store
  // never reads it.
  Transaction& joinable(HandlerTransaction& transaction) const {
    if (auto refusal = detail::join_refusal(transaction, file_, "saga store")) {
      throw cannot_join_error(transaction, *refusal);
    }
    return static_cast<Transaction&>(transaction);
  }

  detail::Database database_;
  std::string file_;
};

}  // namespace

std::unique_ptr<SagaStore> open_saga_store(StoreOptions options, const Clock& clock) {
  return std::make_unique<SqliteSagaStore>(
      detail::checked_options(std::move(options), "SQLite saga store"), clock);
}

}  // namespace docket::sqlite
