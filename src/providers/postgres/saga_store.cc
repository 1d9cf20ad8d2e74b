// The PostgreSQL SagaStore: one row per saga in docket_sagas.
#include "docket/postgres/saga_store.h"

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>

#include "providers/postgres/database.h"
#include "providers/postgres/eventsourcing_schema.h"
#include "providers/postgres/exec.h"
#include "providers/postgres/transaction_block.h"

namespace docket::postgres {
namespace {

Timestamp timestamp_of(std::int64_t micros) {
  return Timestamp(std::chrono::microseconds(micros));
}

class PostgresSagaStore final : public SagaStore {
 public:
  PostgresSagaStore(const StoreOptions& options, const Clock& clock)
      : SagaStore(clock), database_(options, clock, {eventsourcing_schema_component()}) {
    database_.migrate();
  }

  std::string_view provider_name() const noexcept override { return "postgres"; }

 private:
  // SELECT ... FOR UPDATE locks an existing saga's row, so its version is still the
  // read one when the UPDATE runs. Two creators of one saga both see no row; the
  // primary key lets one INSERT through and the other's ON CONFLICT DO NOTHING inserts
  // nothing, which is its conflict.
  SagaSaveResult do_save(const SaveRequest& request) override {
    const SagaId& saga = request.saga;
    auto lease = database_.connect();
    TransactionBlock tx(*lease);
    const Result current_row =
        exec_prepared(*lease, "docket_sagas_lock",
                      "SELECT version, completed_at FROM docket_sagas "
                      "WHERE tenant = $1 AND saga_type = $2 AND saga_id = $3 FOR UPDATE",
                      saga.tenant().value(), saga.saga_type(), saga.saga_id());
    const bool exists = current_row.rows() == 1;
    const std::int64_t current = exists ? current_row.int64(0, 0) : kNewSaga;
    if (current != request.expected_version) {
      return conflict(saga, request.expected_version, current);
    }
    if (exists) {
      if (const std::optional<std::int64_t> completed = current_row.optional_int64(0, 1)) {
        throw completed_saga_error(saga, timestamp_of(*completed));
      }
    }
    const bool completing = request.status == SagaStatus::kCompleted;
    const std::int64_t version = current + 1;
    const std::optional<std::int64_t> completed_at =
        completing ? std::optional<std::int64_t>(micros(request.now)) : std::nullopt;
    const auto state =
        std::as_bytes(std::span<const char>(request.state.data(), request.state.size()));
    const Result written =
        exists ? exec_prepared(*lease, "docket_sagas_update",
                               "UPDATE docket_sagas SET version = $4, state = $5, completed = $6, "
                               "updated_at = $7, completed_at = $8 "
                               "WHERE tenant = $1 AND saga_type = $2 AND saga_id = $3",
                               saga.tenant().value(), saga.saga_type(), saga.saga_id(), version,
                               state, completing, micros(request.now), completed_at)
               : exec_prepared(*lease, "docket_sagas_insert",
                               "INSERT INTO docket_sagas (tenant, saga_type, saga_id, version, "
                               "state, completed, started_at, updated_at, completed_at) VALUES "
                               "($1, $2, $3, $4, $5, $6, $7, $7, $8) ON CONFLICT DO NOTHING",
                               saga.tenant().value(), saga.saga_type(), saga.saga_id(), version,
                               state, completing, micros(request.now), completed_at);
    if (written.affected_rows() != 1) {
      tx.rollback();
      return conflict(saga, request.expected_version, version_of(*lease, saga));
    }
    tx.commit();
    return SagaSaved{.new_version = version};
  }

  std::optional<SagaRecord> do_load(const SagaId& saga) override {
    auto lease = database_.connect();
    const Result r =
        exec_prepared(*lease, "docket_sagas_load",
                      "SELECT version, state, completed, started_at, updated_at, completed_at "
                      "FROM docket_sagas WHERE tenant = $1 AND saga_type = $2 AND saga_id = $3",
                      saga.tenant().value(), saga.saga_type(), saga.saga_id());
    if (r.rows() == 0) {
      return std::nullopt;
    }
    const std::vector<std::byte> state = r.bytea(0, 1);
    SagaRecord record{
        .version = r.int64(0, 0),
        .state = std::string(reinterpret_cast<const char*>(state.data()), state.size()),
        .status = r.boolean(0, 2) ? SagaStatus::kCompleted : SagaStatus::kActive,
        .started_at = timestamp_of(r.int64(0, 3)),
        .updated_at = timestamp_of(r.int64(0, 4)),
        .completed_at = {}};
    if (const std::optional<std::int64_t> completed = r.optional_int64(0, 5)) {
      record.completed_at = timestamp_of(*completed);
    }
    return record;
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
                            micros(cutoff), batch_size)
            : exec_prepared(*lease, "docket_sagas_purge_tenant",
                            "DELETE FROM docket_sagas WHERE ctid IN (SELECT ctid FROM "
                            "docket_sagas WHERE tenant = $3 AND completed_at IS NOT NULL AND "
                            "completed_at < $1 ORDER BY completed_at LIMIT $2)",
                            micros(cutoff), batch_size, tenant->value());
    return static_cast<std::size_t>(r.affected_rows());
  }

  static VersionConflict conflict(const SagaId& saga, std::int64_t expected, std::int64_t actual) {
    return VersionConflict{
        .subject = saga.describe(), .expected_version = expected, .actual_version = actual};
  }

  static std::int64_t version_of(Connection& conn, const SagaId& saga) {
    const Result r = exec_prepared(
        conn, "docket_sagas_version",
        "SELECT version FROM docket_sagas WHERE tenant = $1 AND saga_type = $2 AND saga_id = $3",
        saga.tenant().value(), saga.saga_type(), saga.saga_id());
    return r.rows() == 0 ? kNewSaga : r.int64(0, 0);
  }

  Database database_;
};

}  // namespace

std::unique_ptr<SagaStore> open_saga_store(StoreOptions options, const Clock& clock) {
  return std::make_unique<PostgresSagaStore>(options, clock);
}

}  // namespace docket::postgres
