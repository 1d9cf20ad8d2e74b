// The PostgreSQL CheckpointStore: one autocommit statement per call, so a checkpoint
// is never part of a caller's unit of work.
#include "providers/postgres/postgres_checkpoint_store.h"

#include <span>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "docket/postgres/checkpoint_store.h"
#include "providers/kit/checkpoint_store_listing.h"
#include "providers/kit/time_codec.h"
#include "providers/postgres/postgres_exec.h"
#include "providers/postgres/postgres_inbox_schema.h"

namespace docket::postgres::detail {
namespace {

class PostgresCheckpointStore final : public CheckpointStore {
 public:
  // Borrows `database`.
  explicit PostgresCheckpointStore(Database& database) : database_(database) {}
  // Owns `database`.
  explicit PostgresCheckpointStore(std::unique_ptr<Database> database)
      : owned_(std::move(database)), database_(*owned_) {}

 protected:
  std::optional<std::string> do_get(const std::string& tenant,
                                    std::string_view consumer_id) override {
    auto lease = database_.connect();
    const auto result = exec_prepared(
        *lease, "docket_checkpoint_get",
        "SELECT position FROM docket_consumer_checkpoints WHERE tenant = $1 AND consumer_id = $2",
        tenant, consumer_id);
    if (result.rows() == 0) {
      return std::nullopt;
    }
    return std::string(result.text(0, 0));
  }

  void do_set(const std::string& tenant, std::string_view consumer_id,
              std::string_view position) override {
    auto lease = database_.connect();
    exec_prepared(*lease, "docket_checkpoint_set",
                  "INSERT INTO docket_consumer_checkpoints (tenant, consumer_id, position, "
                  "updated_at) VALUES ($1, $2, $3, 'epoch'::timestamptz + $4 * interval "
                  "'1 microsecond') ON CONFLICT (tenant, consumer_id) DO UPDATE SET "
                  "position = excluded.position, updated_at = excluded.updated_at",
                  tenant, consumer_id, position, kit::to_micros(database_.clock().now()));
  }

  std::vector<CheckpointEntry> do_list(const CheckpointListRequest& request) override {
    // updated_at as exact Unix microseconds: whole seconds, then the microseconds of
    // the second (both exact, where EXTRACT(EPOCH) alone may round on older servers).
    const kit::SqlListingQuery query = kit::checkpoint_list_sql(
        request, '$',
        "EXTRACT(EPOCH FROM date_trunc('second', updated_at))::BIGINT * 1000000 + "
        "EXTRACT(MICROSECONDS FROM updated_at)::BIGINT % 1000000");
    const std::vector<Param> params = to_params(query.params);
    auto lease = database_.connect();
    const Result r = exec_prepared(*lease, "docket_checkpoint_list_" + query.shape, query.sql,
                                   std::span<const Param>(params));
    std::vector<CheckpointEntry> entries;
    entries.reserve(static_cast<std::size_t>(r.rows()));
    for (int row = 0; row < r.rows(); ++row) {
      entries.push_back(CheckpointEntry{.tenant = TenantId::from_stored(r.text(row, 0)),
                                        .consumer_id = std::string(r.text(row, 1)),
                                        .position = std::string(r.text(row, 2)),
                                        .updated_at = kit::from_micros(r.int64(row, 3))});
    }
    return entries;
  }

 private:
  std::unique_ptr<Database> owned_;  // null when borrowed
  Database& database_;
};

}  // namespace

std::unique_ptr<CheckpointStore> open_checkpoints(Database& database) {
  return std::make_unique<PostgresCheckpointStore>(database);
}

}  // namespace docket::postgres::detail

namespace docket::postgres {

std::unique_ptr<CheckpointStore> open_checkpoint_store(StoreOptions options, const Clock& clock) {
  return std::make_unique<detail::PostgresCheckpointStore>(std::make_unique<detail::Database>(
      options, clock, std::vector<detail::SchemaComponent>{detail::inbox_schema()}));
}

}  // namespace docket::postgres
