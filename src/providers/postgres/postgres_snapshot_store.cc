// The PostgreSQL SnapshotStore: one row per stream in docket_snapshots.
#include <memory>
#include <span>
#include <string>
#include <utility>

#include "docket/postgres/snapshot_store.h"
#include "providers/kit/store_kind_capabilities.h"
#include "providers/kit/time_codec.h"
#include "providers/postgres/postgres_capabilities.h"
#include "providers/postgres/postgres_database.h"
#include "providers/postgres/postgres_eventsourcing_schema.h"
#include "providers/postgres/postgres_exec.h"

namespace docket::postgres::detail {
namespace {

class PostgresSnapshotStore final : public SnapshotStore {
 public:
  PostgresSnapshotStore(const StoreOptions& options, const Clock& clock)
      : SnapshotStore(clock), database_(options, clock, {eventsourcing_schema_component()}) {
    database_.migrate();
  }

  std::string_view provider_name() const noexcept override { return "postgres"; }
  StoreCapabilities capabilities() const noexcept override {
    return kit::snapshot_store_capabilities(kPostgresCapabilities);
  }

 private:
  // One statement: the upsert's WHERE keeps a stored snapshot of a higher version and
  // reports it as no row changed. The primary key serializes concurrent saves.
  SnapshotSaveOutcome do_save(const StreamId& stream, const Snapshot& snapshot) override {
    auto lease = database_.connect();
    const Result r = exec_prepared(
        *lease, "docket_snapshots_save",
        "INSERT INTO docket_snapshots (tenant, aggregate_type, aggregate_id, version, payload, "
        "taken_at) VALUES ($1, $2, $3, $4, $5, $6) "
        "ON CONFLICT (tenant, aggregate_type, aggregate_id) DO UPDATE SET "
        "version = excluded.version, payload = excluded.payload, taken_at = excluded.taken_at "
        "WHERE excluded.version >= docket_snapshots.version",
        stream.tenant().value(), stream.aggregate_type(), stream.aggregate_id(), snapshot.version,
        std::as_bytes(std::span<const char>(snapshot.payload.data(), snapshot.payload.size())),
        kit::to_micros(snapshot.taken_at));
    return r.affected_rows() == 1 ? SnapshotSaveOutcome::kSaved : SnapshotSaveOutcome::kKeptNewer;
  }

  std::optional<Snapshot> do_load(const StreamId& stream) override {
    auto lease = database_.connect();
    const Result r =
        exec_prepared(*lease, "docket_snapshots_load",
                      "SELECT version, payload, taken_at FROM docket_snapshots "
                      "WHERE tenant = $1 AND aggregate_type = $2 AND aggregate_id = $3",
                      stream.tenant().value(), stream.aggregate_type(), stream.aggregate_id());
    if (r.rows() == 0) {
      return std::nullopt;
    }
    const std::vector<std::byte> payload = r.bytea(0, 1);
    return Snapshot{
        .version = r.int64(0, 0),
        .payload = std::string(reinterpret_cast<const char*>(payload.data()), payload.size()),
        .taken_at = kit::from_micros(r.int64(0, 2))};
  }

  Database database_;
};

}  // namespace

}  // namespace docket::postgres::detail

namespace docket::postgres {

std::unique_ptr<SnapshotStore> open_snapshot_store(StoreOptions options, const Clock& clock) {
  return std::make_unique<detail::PostgresSnapshotStore>(options, clock);
}

}  // namespace docket::postgres
