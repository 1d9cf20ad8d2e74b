// The memory provider's OutboxStore. Like PostgreSQL, a sequence is taken when the row
// is staged and the row becomes visible when its unit of work commits, so sequences
// can become visible out of order and a rolled-back unit leaves a gap: the pull
// consumer's gap rule is exercised on this provider too. Relay operations run under
// the database's exclusive lock, each a transaction of its own.
#include <functional>
#include <initializer_list>
#include <memory>
#include <set>
#include <string>
#include <utility>

#include "docket/core/error.h"
#include "docket/memory/store.h"
#include "docket/memory/transaction.h"
#include "docket/outbox/outbox_schema.h"
#include "providers/memory/memory_capabilities.h"
#include "providers/memory/memory_database_access.h"
#include "providers/memory/memory_outbox_rows.h"
#include "providers/memory/memory_unit.h"

namespace docket::memory {
namespace {

using detail::from_values;
using detail::OutboxRow;
using detail::to_values;

class MemoryOutboxStore final : public OutboxStore {
 public:
  explicit MemoryOutboxStore(std::shared_ptr<detail::Database> database)
      : database_(std::move(database)) {}

  std::string_view provider_name() const noexcept override { return "memory"; }
  StoreCapabilities capabilities() const noexcept override { return detail::kMemoryCapabilities; }
  TransactionType transaction_type() const noexcept override {
    return TransactionType::of<memory::Transaction>();
  }
  void migrate() override {}  // tables exist implicitly
  std::unique_ptr<UnitOfWork> begin() override { return detail::open_unit_of_work(*database_); }

  void insert(HandlerTransaction& tx, const OutboxRecord& record) override {
    detail::Unit& unit = detail::joined_unit(tx, *database_, [&](const std::string& reason) {
      return ConfigurationError(
          "memory outbox: cannot stage through a " + std::string(tx.type_name()) + ": " + reason +
          ". A message is atomic only with writes to its own outbox's database: "
          "stage through a unit of work from this outbox store's begin(), or of an inbox "
          "store on the same docket::memory::Database");
    });
    OutboxRow row{.record = record};
    row.record.sequence = database_->next_outbox_sequence();
    unit.insert(kOutboxIdsTable(), {record.id}, detail::sequence_key(row.record.sequence));
    unit.insert(kOutboxTable, detail::sequence_key(row.record.sequence), to_values(row));
    unit.wake_relays_at_commit();
  }

  std::shared_ptr<WakeSignal> staged_signal() override { return database_->outbox_staged(); }

  std::vector<OutboxRecord> claim(std::string_view token, Timestamp now, Timestamp lease_until,
                                  std::size_t limit) override {
    std::vector<OutboxRecord> claimed;
    // Keys whose earliest pending or parked row has been passed: every later row of
    // such a key waits (the visit is in sequence order).
    std::set<std::pair<std::string, std::string>> held_keys;
    each_row({OutboxStatus::kPending, OutboxStatus::kParked}, [&](OutboxRow& row) {
      if (claimed.size() == limit) {
        return Change::kStop;
      }
      if (row.record.ordering_key &&
          !held_keys.emplace(row.record.tenant, *row.record.ordering_key).second) {
        return Change::kKeep;
      }
      if (!kit::leasable(row, now)) {
        return Change::kKeep;
      }
      kit::lease(row, token, lease_until);
      claimed.push_back(row.record);
      return Change::kUpdate;
    });
    return claimed;
  }

  bool complete(std::string_view id, std::string_view token, Timestamp now) override {
    return update_leased(id, token, [&](OutboxRow& row) { kit::complete(row, now); });
  }

  bool fail(std::string_view id, std::string_view token, const FailedAttempt& attempt) override {
    return update_leased(id, token, [&](OutboxRow& row) { kit::fail(row, attempt); });
  }

  std::vector<OutboxRecord> parked(std::int64_t after_sequence, std::size_t limit) override {
    std::vector<OutboxRecord> rows;
    each_row({OutboxStatus::kParked}, [&](OutboxRow& row) {
      if (rows.size() == limit) {
        return Change::kStop;
      }
      if (row.record.sequence > after_sequence) {
        rows.push_back(row.record);
      }
      return Change::kKeep;
    });
    return rows;
  }

  bool replay(std::string_view id, Timestamp now) override {
    return with_row(id, [&](OutboxRow& row) { return kit::replay(row, now); });
  }

  bool cancel(std::string_view id, Timestamp now) override {
    return with_row(id, [&](OutboxRow& row) { return kit::cancel(row, now); });
  }

  bool skip(std::string_view id, Timestamp now) override {
    return with_row(id, [&](OutboxRow& row) { return kit::skip(row, now); });
  }

  std::size_t purge_parked_batch(Timestamp cutoff, std::size_t limit) override {
    std::size_t deleted = 0;
    each_row({OutboxStatus::kParked}, [&](OutboxRow& row) {
      if (deleted == limit) {
        return Change::kStop;
      }
      if (row.record.next_attempt_at >= cutoff) {
        return Change::kKeep;
      }
      ++deleted;
      return Change::kDelete;
    });
    return deleted;
  }

  std::size_t purge_done_batch(Timestamp cutoff, std::size_t limit) override {
    std::size_t deleted = 0;
    each_row({OutboxStatus::kDone}, [&](OutboxRow& row) {
      if (deleted == limit) {
        return Change::kStop;
      }
      const auto& r = row.record;
      if (!r.done_at || *r.done_at >= cutoff) {
        return Change::kKeep;
      }
      ++deleted;
      return Change::kDelete;
    });
    return deleted;
  }

  std::vector<OutboxRecord> read_feed(std::int64_t after_sequence, std::size_t limit) override {
    std::vector<OutboxRecord> rows;
    database_->read([&](const detail::State& state) {
      const auto& tables = state.tables;
      const auto table = tables.find(kOutboxTable);
      if (table == tables.end()) {
        return;
      }
      for (auto it = table->second.upper_bound(detail::sequence_key(after_sequence));
           it != table->second.end() && rows.size() < limit; ++it) {
        rows.push_back(from_values(it->first, it->second).record);
      }
    });
    return rows;
  }

  std::optional<OutboxRecord> find(std::string_view id) override {
    std::optional<OutboxRecord> found;
    database_->read([&](const detail::State& state) {
      const auto& tables = state.tables;
      const auto ids = tables.find(kOutboxIdsTable());
      const auto rows = tables.find(kOutboxTable);
      if (ids == tables.end() || rows == tables.end()) {
        return;
      }
      const auto key = ids->second.find({std::string(id)});
      if (key != ids->second.end()) {
        const auto row = rows->second.find(key->second);
        found = from_values(row->first, row->second).record;
      }
    });
    return found;
  }

 private:
  enum class Change { kKeep, kUpdate, kDelete, kStop };

  static std::string_view kOutboxIdsTable() { return detail::kOutboxIdsTable; }

  // Visits the committed rows in one of `statuses`, in sequence order, under the
  // exclusive lock: one transaction.
  void each_row(std::initializer_list<OutboxStatus> statuses,
                const std::function<Change(OutboxRow&)>& visit) {
    std::set<std::string> codes;
    for (const OutboxStatus status : statuses) {
      codes.insert(std::to_string(static_cast<int>(status)));
    }
    database_->write([&](detail::State& state) {
      auto& tables = state.tables;
      auto& rows = tables[std::string(kOutboxTable)];
      auto& ids = tables[std::string(detail::kOutboxIdsTable)];
      for (auto it = rows.begin(); it != rows.end();) {
        if (!codes.contains(it->second.at(detail::kStatusTerm))) {
          ++it;
          continue;
        }
        OutboxRow row = from_values(it->first, it->second);
        const Change change = visit(row);
        if (change == Change::kStop) {
          return;
        }
        if (change == Change::kDelete) {
          ids.erase({row.record.id});
          it = rows.erase(it);
          continue;
        }
        if (change == Change::kUpdate) {
          it->second = to_values(row);
        }
        ++it;
      }
    });
  }

  // Runs `change` on the row `id` under the exclusive lock; stores the row when it
  // returns true, and returns that.
  bool with_row(std::string_view id, const std::function<bool(OutboxRow&)>& change) {
    bool changed = false;
    database_->write([&](detail::State& state) {
      auto& tables = state.tables;
      auto& rows = tables[std::string(kOutboxTable)];
      auto& ids = tables[std::string(detail::kOutboxIdsTable)];
      const auto key = ids.find({std::string(id)});
      if (key == ids.end()) {
        return;
      }
      const auto it = rows.find(key->second);
      OutboxRow row = from_values(it->first, it->second);
      changed = change(row);
      if (changed) {
        it->second = to_values(row);
      }
    });
    return changed;
  }

  // Applies `change` (which ends the lease) to the row `id` if `token` holds its lease.
  bool update_leased(std::string_view id, std::string_view token,
                     const std::function<void(OutboxRow&)>& change) {
    return with_row(id, [&](OutboxRow& row) {
      if (!kit::held_by(row, token)) {
        return false;
      }
      change(row);
      return true;
    });
  }

  std::shared_ptr<detail::Database> database_;
};

}  // namespace

std::unique_ptr<OutboxStore> open_outbox_store(const Database& database) {
  return std::make_unique<MemoryOutboxStore>(DatabaseAccess::state(database));
}

std::unique_ptr<OutboxStore> open_outbox_store(const Clock& clock) {
  return open_outbox_store(open_database(clock));
}

}  // namespace docket::memory
