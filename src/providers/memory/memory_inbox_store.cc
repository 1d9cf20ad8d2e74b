// The memory provider's InboxStore and UnitOfWork over one database (its checkpoints:
// memory_checkpoint_store.cc).
// Dedup rows live in the table kInboxMessagesTable under the key (tenant, consumer
// id, message id); values: processed-at (Unix microseconds), event type, occurred-at,
// source, causation id, correlation id (absent lineage as empty text).
#include <memory>
#include <string>
#include <utility>

#include "docket/inbox/inbox_schema.h"
#include "docket/memory/store.h"
#include "docket/memory/transaction.h"
#include "docket/spi/inbox_unit.h"
#include "providers/kit/time_codec.h"
#include "providers/memory/memory_capabilities.h"
#include "providers/memory/memory_checkpoint_store.h"
#include "providers/memory/memory_database_access.h"
#include "providers/memory/memory_transaction_access.h"
#include "providers/memory/memory_unit.h"

namespace docket::memory {
namespace {

Terms dedup_terms(const DedupKey& key) {
  return {key.tenant, key.consumer_id, key.message_id};
}

class MemoryUnitOfWork final : public spi::InboxUnit {
 public:
  explicit MemoryUnitOfWork(detail::Database& database)
      : unit_(database), tx_(unit_), clock_(database.clock()) {}

  bool try_record(const InboxRecord& record) override {
    Terms key = dedup_terms(record.key);
    if (unit_.find(kInboxMessagesTable, key)) {
      return false;
    }
    unit_.insert(kInboxMessagesTable, std::move(key),
                 {std::to_string(kit::to_micros(clock_.now())), record.event_type,
                  std::to_string(kit::to_micros(record.occurred_at)), record.source.value_or(""),
                  record.causation_id.value_or(""), record.correlation_id.value_or("")});
    return true;
  }
  bool is_recorded(const DedupKey& key) override {
    return unit_.find(kInboxMessagesTable, dedup_terms(key)).has_value();
  }
  HandlerTransaction& handler_transaction() noexcept override { return tx_.transaction(); }
  void begin_savepoint() override { unit_.begin_savepoint(); }
  void release_savepoint() override { unit_.release_savepoint(); }
  void rollback_savepoint() override { unit_.rollback_savepoint(); }
  void commit() override { unit_.commit(); }

 private:
  detail::Unit unit_;
  TransactionAccess::OnUnit tx_;
  const Clock& clock_;
};

class MemoryInboxStore final : public InboxStore {
 public:
  explicit MemoryInboxStore(std::shared_ptr<detail::Database> database)
      : database_(std::move(database)), checkpoints_(detail::open_checkpoints(database_)) {}

  std::string_view provider_name() const noexcept override { return "memory"; }
  StoreCapabilities capabilities() const noexcept override { return detail::kMemoryCapabilities; }
  TransactionType transaction_type() const noexcept override {
    return TransactionType::of<memory::Transaction>();
  }
  void migrate() override {}  // tables exist implicitly
  std::unique_ptr<spi::InboxUnit> begin_unit() override {
    return std::make_unique<MemoryUnitOfWork>(*database_);
  }
  bool is_recorded(const DedupKey& key) override {
    return database_->find(kInboxMessagesTable, dedup_terms(key)).has_value();
  }
  CheckpointStore& checkpoints() noexcept override { return *checkpoints_; }

 protected:
  std::vector<std::string> do_filter_unprocessed(
      const std::string& tenant, std::string_view consumer_id,
      std::span<const std::string> message_ids) override {
    std::vector<std::string> unprocessed;
    database_->read([&](const detail::State& state) {
      const auto table = state.tables.find(kInboxMessagesTable);
      for (const std::string& id : message_ids) {
        if (table == state.tables.end() ||
            !table->second.contains({tenant, std::string(consumer_id), id})) {
          unprocessed.push_back(id);
        }
      }
    });
    return unprocessed;
  }

  std::size_t do_purge_batch(Timestamp cutoff, std::size_t limit) override {
    const std::int64_t before = kit::to_micros(cutoff);
    std::size_t deleted = 0;
    database_->write([&](detail::State& state) {
      const auto table = state.tables.find(kInboxMessagesTable);
      if (table == state.tables.end()) {
        return;
      }
      for (auto row = table->second.begin(); row != table->second.end() && deleted < limit;) {
        if (std::stoll(row->second.at(0)) < before) {
          row = table->second.erase(row);
          ++deleted;
        } else {
          ++row;
        }
      }
    });
    return deleted;
  }

  // Rows are keyed (tenant, consumer id, message id): one tenant's are a range.
  std::size_t do_purge_consumer_batch(const std::string* tenant, std::string_view consumer_id,
                                      std::size_t limit) override {
    std::size_t deleted = 0;
    database_->write([&](detail::State& state) {
      const auto table = state.tables.find(kInboxMessagesTable);
      if (table == state.tables.end()) {
        return;
      }
      auto row = tenant != nullptr
                     ? table->second.lower_bound(Terms{*tenant, std::string(consumer_id)})
                     : table->second.begin();
      while (row != table->second.end() && deleted < limit) {
        const Terms& key = row->first;
        if (tenant != nullptr && (key.at(0) != *tenant || key.at(1) != consumer_id)) {
          break;  // past the range
        }
        if (key.at(1) == consumer_id) {
          row = table->second.erase(row);
          ++deleted;
        } else {
          ++row;
        }
      }
    });
    return deleted;
  }

 private:
  std::shared_ptr<detail::Database> database_;
  std::unique_ptr<CheckpointStore> checkpoints_;
};

}  // namespace

std::unique_ptr<UnitOfWork> detail::open_unit_of_work(detail::Database& database) {
  return std::make_unique<MemoryUnitOfWork>(database);
}

std::unique_ptr<InboxStore> open_store(const Database& database) {
  return std::make_unique<MemoryInboxStore>(DatabaseAccess::state(database));
}

std::unique_ptr<InboxStore> open_store(const Clock& clock) {
  return open_store(open_database(clock));
}

}  // namespace docket::memory
