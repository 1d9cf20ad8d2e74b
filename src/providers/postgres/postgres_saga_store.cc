// The PostgreSQL SagaStore: one row per saga in docket_sagas. Its own saves are one
// autocommit statement each (a READ COMMITTED transaction of its own), loads and saves
// inside a PostgreSQL unit of work in that unit's transaction; both through the same
// SQL (save_saga, load_saga). list is one SELECT in key order behind the page's position
// (kit/saga_listing.h), a range of the primary key or, for active sagas, of the partial
// index docket_sagas_active; prepared once per filter shape on each connection.
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "docket/core/error.h"
#include "docket/postgres/saga_store.h"
#include "docket/postgres/transaction.h"
#include "providers/kit/saga_listing.h"
#include "providers/kit/store_kind_capabilities.h"
#include "providers/kit/time_codec.h"
#include "providers/postgres/postgres_capabilities.h"
#include "providers/postgres/postgres_database.h"
#include "providers/postgres/postgres_eventsourcing_schema.h"
#include "providers/postgres/postgres_exec.h"
#include "providers/postgres/postgres_join.h"
#include "providers/postgres/postgres_transaction_access.h"

namespace docket::postgres::detail {
namespace {

class PostgresSagaStore final : public SagaStore {
 public:
  PostgresSagaStore(const StoreOptions& options, const Clock& clock)
      : SagaStore(clock), database_(options, clock, {eventsourcing_schema_component()}) {
    database_.migrate();
    auto lease = database_.connect();
    table_ = table_identity(*lease, "docket_sagas");
  }

  std::string_view provider_name() const noexcept override { return "postgres"; }
  StoreCapabilities capabilities() const noexcept override {
    return kit::saga_store_capabilities(kPostgresCapabilities);
  }
  std::optional<TransactionType> transaction_type() const noexcept override {
    return TransactionType::of<postgres::Transaction>();
  }

 private:
  SagaSaveResult do_save(const SaveRequest& request) override {
    auto lease = database_.connect();
    return save_saga(*lease, request, Joining::kOwnTransaction);
  }

  SagaSaveResult do_save_in(HandlerTransaction& transaction, const SaveRequest& request) override {
    return save_saga(joinable(transaction), request, Joining::kCallersTransaction);
  }

  std::optional<SagaRecord> do_load(const SagaId& saga) override {
    auto lease = database_.connect();
    return load_saga(*lease, saga, Lock::kNone);
  }

  // Locks the row until the caller's transaction ends, so that a concurrent step of the
  // same saga waits here and then reads the version this transaction commits.
  std::optional<SagaRecord> do_load_in(HandlerTransaction& transaction,
                                       const SagaId& saga) override {
    return load_saga(joinable(transaction), saga, Lock::kForUpdate);
  }

  SagaPage do_list(const SagaListRequest& request) override {
    const kit::SqlListingQuery query = kit::saga_list_sql(request, '$');
    const std::vector<Param> params = to_params(query.params);
    auto lease = database_.connect();
    const Result r = exec_prepared(*lease, "docket_sagas_list_" + query.shape, query.sql,
                                   std::span<const Param>(params));
    std::vector<SagaSummary> sagas;
    sagas.reserve(static_cast<std::size_t>(r.rows()));
    for (int row = 0; row < r.rows(); ++row) {
      sagas.push_back(kit::saga_list_row(r.text(row, 0), r.text(row, 1), r.text(row, 2),
                                         r.int64(row, 3), r.int64(row, 4), r.int64(row, 5),
                                         r.optional_int64(row, 6)));
    }
    return kit::saga_list_page(std::move(sagas), request.limit);
  }

  // One DELETE statement: its own short transaction, at most batch_size rows, oldest
  // completion first.
  std::size_t do_purge_completed_batch(Timestamp cutoff, std::size_t batch_size,
                                       const TenantId* tenant) override {
    auto lease = database_.connect();
    const Result r =
        tenant == nullptr
            ? exec_prepared(*lease, "docket_sagas_purge",
                            "DELETE FROM docket_sagas WHERE ctid IN (SELECT ctid FROM "
                            "docket_sagas WHERE completed_at IS NOT NULL AND completed_at < $1 "
                            "ORDER BY completed_at LIMIT $2)",
                            kit::to_micros(cutoff), batch_size)
            : exec_prepared(*lease, "docket_sagas_purge_tenant",
                            "DELETE FROM docket_sagas WHERE ctid IN (SELECT ctid FROM "
                            "docket_sagas WHERE tenant = $3 AND completed_at IS NOT NULL AND "
                            "completed_at < $1 ORDER BY completed_at LIMIT $2)",
                            kit::to_micros(cutoff), batch_size, tenant->value());
    return static_cast<std::size_t>(r.affected_rows());
  }

  // The version check and the write in one statement, so one round trip:
  // docket_save_saga (eventsourcing_schema.cc) locks an existing saga's row, so its
  // version is still the read one when it is updated; of two creators of one saga the
  // primary key lets one INSERT through and the other's ON CONFLICT (the primary key)
  // DO NOTHING (which waits for the first to commit) inserts nothing, which is its
  // conflict; another unique index's violation is the server's error (schema version 4). Neither
  // fails on a race, so the caller's transaction stays usable.
  static SagaSaveResult save_saga(Connection& conn, const SaveRequest& request, Joining joining) {
    const SagaId& saga = request.saga;
    if (joining == Joining::kCallersTransaction && conn.idle()) {
      throw InfrastructureError("PostgreSQL saga store: save of " + saga.describe() +
                                " needs an open transaction, and the connection has none (a "
                                "handler must not COMMIT or ROLLBACK itself); nothing was "
                                "written");
    }
    const auto state =
        std::as_bytes(std::span<const char>(request.state.data(), request.state.size()));
    const Result r = exec_prepared_binary(
        conn, "docket_sagas_save",
        "SELECT saved, saga_version, completed_micros FROM docket_save_saga($1, $2, $3, $4, $5, "
        "$6, $7)",
        saga.tenant().value(), saga.saga_type(), saga.saga_id(), request.expected_version, state,
        request.status == SagaStatus::kCompleted, kit::to_micros(request.now));
    const std::int64_t version = r.int64(0, 1);
    if (r.boolean(0, 0)) {
      return SagaSaved{.new_version = version};
    }
    if (version == request.expected_version) {
      if (const std::optional<std::int64_t> completed = r.optional_int64(0, 2)) {
        throw completed_saga_error(saga, kit::from_micros(*completed));
      }
    }
    return conflict(saga, request.expected_version, version);
  }

  enum class Lock { kNone, kForUpdate };

  static std::optional<SagaRecord> load_saga(Connection& conn, const SagaId& saga, Lock lock) {
    static constexpr std::string_view kSelect =
        "SELECT version, state, completed, started_at, updated_at, completed_at "
        "FROM docket_sagas WHERE tenant = $1 AND saga_type = $2 AND saga_id = $3";
    static const std::string locked = std::string(kSelect) + " FOR UPDATE";
    const Result r = lock == Lock::kForUpdate
                         ? exec_prepared(conn, "docket_sagas_load_locked", locked,
                                         saga.tenant().value(), saga.saga_type(), saga.saga_id())
                         : exec_prepared(conn, "docket_sagas_load", kSelect, saga.tenant().value(),
                                         saga.saga_type(), saga.saga_id());
    if (r.rows() == 0) {
      return std::nullopt;
    }
    const std::vector<std::byte> state = r.bytea(0, 1);
    SagaRecord record{
        .version = r.int64(0, 0),
        .state = std::string(reinterpret_cast<const char*>(state.data()), state.size()),
        .status = r.boolean(0, 2) ? SagaStatus::kCompleted : SagaStatus::kActive,
        .started_at = kit::from_micros(r.int64(0, 3)),
        .updated_at = kit::from_micros(r.int64(0, 4)),
        .completed_at = {}};
    if (const std::optional<std::int64_t> completed = r.optional_int64(0, 5)) {
      record.completed_at = kit::from_micros(*completed);
    }
    return record;
  }

  // `transaction` as a connection whose search_path resolves docket_sagas to this
  // store's table, or ConfigurationError: a saga saved elsewhere would commit where
  // this store never reads it.
  Connection& joinable(HandlerTransaction& transaction) const {
    if (auto refusal = join_refusal(transaction, "saga store", "docket_sagas", table_)) {
      throw cannot_join_error(transaction, *refusal);
    }
    return TransactionAccess::connection(static_cast<Transaction&>(transaction));
  }

  static VersionConflict conflict(const SagaId& saga, std::int64_t expected, std::int64_t actual) {
    return VersionConflict{
        .subject = saga.describe(), .expected_version = expected, .actual_version = actual};
  }

  Database database_;
  std::string table_;
};

}  // namespace

}  // namespace docket::postgres::detail

namespace docket::postgres {

std::unique_ptr<SagaStore> open_saga_store(StoreOptions options, const Clock& clock) {
  return std::make_unique<detail::PostgresSagaStore>(options, clock);
}

}  // namespace docket::postgres
