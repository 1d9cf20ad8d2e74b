// The memory CheckpointStore: rows of kConsumerCheckpointsTable under the key (tenant,
// consumer id); values: the position and the time it was set (Unix microseconds).
#include "providers/memory/memory_checkpoint_store.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "docket/inbox/inbox_schema.h"
#include "docket/memory/checkpoint_store.h"
#include "providers/kit/time_codec.h"
#include "providers/memory/memory_database.h"
#include "providers/memory/memory_database_access.h"

namespace docket::memory {
namespace {

class MemoryCheckpointStore final : public CheckpointStore {
 public:
  explicit MemoryCheckpointStore(std::shared_ptr<detail::Database> database)
      : database_(std::move(database)) {}

 protected:
  std::optional<std::string> do_get(const std::string& tenant,
                                    std::string_view consumer_id) override {
    auto row = database_->find(kConsumerCheckpointsTable, {tenant, std::string(consumer_id)});
    if (!row) {
      return std::nullopt;
    }
    return row->at(0);
  }
  void do_set(const std::string& tenant, std::string_view consumer_id,
              std::string_view position) override {
    Terms values{std::string(position), std::to_string(kit::to_micros(database_->clock().now()))};
    database_->write([&](detail::State& state) {
      state.tables[std::string(kConsumerCheckpointsTable)][{tenant, std::string(consumer_id)}] =
          std::move(values);
    });
  }
  // Key order (tenant, consumer id): the table's own.
  std::vector<CheckpointEntry> do_list(const CheckpointListRequest& request) override {
    std::vector<CheckpointEntry> entries;
    database_->read([&](const detail::State& state) {
      const auto table = state.tables.find(kConsumerCheckpointsTable);
      if (table == state.tables.end()) {
        return;
      }
      auto row = table->second.begin();
      if (request.after) {
        row = table->second.upper_bound(
            Terms{request.after->tenant.value(), request.after->consumer_id});
      }
      for (; row != table->second.end() && entries.size() <= request.limit; ++row) {
        const Terms& key = row->first;
        if ((request.tenant && key.at(0) != request.tenant->value()) ||
            (request.consumer_id && key.at(1) != *request.consumer_id)) {
          continue;
        }
        entries.push_back(
            CheckpointEntry{.tenant = TenantId::from_stored(key.at(0)),
                            .consumer_id = key.at(1),
                            .position = row->second.at(0),
                            .updated_at = kit::from_micros(std::stoll(row->second.at(1)))});
      }
    });
    return entries;
  }

 private:
  std::shared_ptr<detail::Database> database_;
};

}  // namespace

std::unique_ptr<CheckpointStore> detail::open_checkpoints(
    std::shared_ptr<detail::Database> database) {
  return std::make_unique<MemoryCheckpointStore>(std::move(database));
}

std::unique_ptr<CheckpointStore> open_checkpoint_store(const Database& database) {
  return detail::open_checkpoints(DatabaseAccess::state(database));
}

std::unique_ptr<CheckpointStore> open_checkpoint_store(const Clock& clock) {
  return open_checkpoint_store(open_database(clock));
}

}  // namespace docket::memory
