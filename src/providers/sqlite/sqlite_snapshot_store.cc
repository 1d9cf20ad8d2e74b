// The SQLite SnapshotStore: one row per stream in docket_snapshots.
#include <memory>
#include <string>
#include <utility>

#include "docket/sqlite/snapshot_store.h"
#include "providers/kit/store_kind_capabilities.h"
#include "providers/kit/time_codec.h"
#include "providers/sqlite/sqlite_database.h"
#include "providers/sqlite/sqlite_eventsourcing_schema.h"
#include "providers/sqlite/sqlite_options.h"

namespace docket::sqlite {
namespace {

class SqliteSnapshotStore final : public SnapshotStore {
 public:
  SqliteSnapshotStore(const StoreOptions& options, const Clock& clock)
      : SnapshotStore(clock), database_(options, clock, detail::migrate_eventsourcing_schema) {
    database_.migrate();
  }

  std::string_view provider_name() const noexcept override { return "sqlite"; }
  StoreCapabilities capabilities() const noexcept override {
    return kit::snapshot_store_capabilities(database_.capabilities());
  }

 private:
  // One statement: the upsert's WHERE keeps a stored snapshot of a higher version, and
  // reports it as no row changed.
  SnapshotSaveOutcome do_save(const StreamId& stream, const Snapshot& snapshot) override {
    const std::int64_t changed = database_.connect()->exec(
        "INSERT INTO docket_snapshots (tenant, aggregate_type, aggregate_id, version, payload, "
        "taken_at) VALUES (?1, ?2, ?3, ?4, CAST(?5 AS BLOB), ?6) "
        "ON CONFLICT (tenant, aggregate_type, aggregate_id) DO UPDATE SET "
        "version = excluded.version, payload = excluded.payload, taken_at = excluded.taken_at "
        "WHERE excluded.version >= docket_snapshots.version",
        {stream.tenant().value(), stream.aggregate_type(), stream.aggregate_id(), snapshot.version,
         snapshot.payload, kit::to_micros(snapshot.taken_at)});
    return changed == 1 ? SnapshotSaveOutcome::kSaved : SnapshotSaveOutcome::kKeptNewer;
  }

  std::optional<Snapshot> do_load(const StreamId& stream) override {
    const auto rows = database_.connect()->query(
        "SELECT version, payload, taken_at FROM docket_snapshots "
        "WHERE tenant = ?1 AND aggregate_type = ?2 AND aggregate_id = ?3",
        {stream.tenant().value(), stream.aggregate_type(), stream.aggregate_id()});
    if (rows.empty()) {
      return std::nullopt;
    }
    const Row& row = rows[0];
    return Snapshot{.version = std::get<std::int64_t>(row.at(0)),
                    .payload = std::get<std::string>(row.at(1)),
                    .taken_at = kit::from_micros(std::get<std::int64_t>(row.at(2)))};
  }

  detail::Database database_;
};

}  // namespace

std::unique_ptr<SnapshotStore> open_snapshot_store(StoreOptions options, const Clock& clock) {
  return std::make_unique<SqliteSnapshotStore>(
      detail::checked_options(std::move(options), "SQLite snapshot store"), clock);
}

}  // namespace docket::sqlite
