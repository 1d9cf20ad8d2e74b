// The committed state of a memory database (docket/memory/database.h): named tables
// of rows under unique keys (inbox, outbox, checkpoints, a handler's own rows), the
// event log, snapshots and sagas, guarded by one reader/writer lock. Units of work
// stage writes and apply them here atomically at commit, after checking every one of
// them again under the lock.
//
// Thread-safety: every member is safe to call from many threads.
#ifndef DOCKET_PROVIDERS_MEMORY_MEMORY_DATABASE_H_
#define DOCKET_PROVIDERS_MEMORY_MEMORY_DATABASE_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <vector>

#include "docket/core/clock.h"
#include "docket/core/wake_signal.h"
#include "docket/eventsourcing/snapshot_store.h"
#include "docket/inbox/claim_inbox_store.h"
#include "docket/memory/transaction.h"
#include "docket/sagas/saga_store.h"
#include "providers/kit/write_set.h"
#include "providers/memory/memory_event_log.h"

namespace docket::memory::detail {

using Table = std::map<Terms, Terms>;
using Tables = std::map<std::string, Table, std::less<>>;

struct State {
  Tables tables;
  EventLog events;
  std::map<StreamId, Snapshot> snapshots;
  std::map<SagaId, SagaRecord> sagas;
  std::map<ClaimKey, ClaimEntry> claims;  // the claim inbox, in key order
};

struct StagedInsert {
  std::string table;
  Terms key;
  Terms values;
};

// Events a unit of work appends to `stream`, numbered after `base_version` (what the
// unit saw), positions 0 until commit.
struct StagedAppend {
  StreamId stream;
  std::int64_t base_version;
  std::vector<RecordedEvent> events;
};

// A saga save: the saga was at `expected_version` as the unit saw it, and `record` is
// what it is after the save.
struct StagedSagaSave {
  SagaId saga;
  std::int64_t expected_version;
  SagaRecord record;
};

// Everything one unit of work staged, each kind in the order staged, with the unit's
// savepoint marks. A memory database has no limit on one commit.
using Staged = kit::WriteSet<StagedInsert, StagedAppend, StagedSagaSave>;

class Database {
 public:
  explicit Database(const Clock& clock);

  const Clock& clock() const noexcept { return clock_; }
  // "memory database 3": names it in errors.
  std::string describe() const;
  std::uint64_t id() const noexcept { return id_; }

  std::optional<Terms> find(std::string_view table, const Terms& key) const;
  std::size_t count(std::string_view table) const;
  std::int64_t stream_version(const StreamId& stream) const;
  std::optional<SagaRecord> find_saga(const SagaId& saga) const;

  // Applies everything `staged` or nothing: throws UniqueViolationError naming the
  // first row key already committed (a dedup row: a concurrent duplicate delivery),
  // stream whose version moved past the append's base, or saga whose version moved
  // past the save's expectation. Event positions are assigned here.
  void commit(const Staged& staged);

  // Runs `reader` on the committed state under the shared lock.
  void read(const std::function<void(const State&)>& reader) const;

  // Runs `writer` on the committed state under the exclusive lock: a transaction of
  // its own (an append or saga save outside a unit of work, checkpoint upserts,
  // retention batches).
  void write(const std::function<void(State&)>& writer);

  // The next outbox sequence, taken when a message is staged (docket/memory/store.h).
  std::int64_t next_outbox_sequence() noexcept { return ++last_outbox_sequence_; }

  // Notified after a commit that staged outbox messages (OutboxStore::staged_signal).
  const std::shared_ptr<WakeSignal>& outbox_staged() const noexcept { return outbox_staged_; }
  // Notified after a commit that appended events (EventStore::appended_signal): by
  // commit() and by writes through append_events().
  const std::shared_ptr<WakeSignal>& events_appended() const noexcept { return events_appended_; }

 private:
  void commit_locked(const Staged& staged);

  const Clock& clock_;
  const std::uint64_t id_;
  std::atomic<std::int64_t> last_outbox_sequence_ = 0;
  const std::shared_ptr<WakeSignal> outbox_staged_ = std::make_shared<WakeSignal>();
  const std::shared_ptr<WakeSignal> events_appended_ = std::make_shared<WakeSignal>();
  mutable std::shared_mutex mutex_;
  State state_;
};

// "memory table 'name': a row with key ('a', 'b') already exists" plus advice.
[[noreturn]] void throw_unique_violation(std::string_view table, const Terms& key,
                                         std::string_view when);

}  // namespace docket::memory::detail

#endif  // DOCKET_PROVIDERS_MEMORY_MEMORY_DATABASE_H_
