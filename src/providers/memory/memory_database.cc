#include "providers/memory/memory_database.h"

#include <mutex>

#include "docket/core/error.h"
#include "docket/eventsourcing/eventsourcing_schema.h"
#include "docket/inbox/inbox_errors.h"
#include "docket/sagas/saga_errors.h"
#include "providers/kit/unit_sagas.h"

namespace docket::memory::detail {
namespace {

std::atomic<std::uint64_t> last_database_id{0};

std::string state_at(std::int64_t version) {
  return version < 0 ? "does not exist" : "is at version " + std::to_string(version);
}

// A staged append to a stream another unit of work appended to after this one read
// it: the conflict the document stores report at commit for the same race.
[[noreturn]] void throw_moved(const Database& database, const std::string& subject,
                              std::int64_t seen, std::int64_t current) {
  throw ConcurrencyConflictError(
      seen, current,
      database.describe() + ": " + subject + " " + state_at(current) +
          ", but this unit of work appended after version " + std::to_string(seen) +
          " (another unit of work committed a write to it in between); nothing of "
          "this unit of work was written. Run it again: the dispatcher does for a batch; "
          "dispatch() rethrows this, and a redelivery of the message sees the new version.");
}

void check_inserts(const Tables& tables, const std::vector<StagedInsert>& inserts) {
  for (const StagedInsert& insert : inserts) {
    const auto t = tables.find(insert.table);
    if (t != tables.end() && t->second.contains(insert.key)) {
      throw_unique_violation(insert.table, insert.key, "committed by another unit of work");
    }
  }
}

// Each staged record's version as the unit saw it must still be the committed one;
// later writes of the unit to the same record continue from its own earlier ones.
void check_appends(const Database& database, const EventLog& log,
                   const std::vector<StagedAppend>& appends) {
  std::map<StreamId, std::int64_t> staged;
  for (const StagedAppend& append : appends) {
    const auto seen = staged.find(append.stream);
    const std::int64_t current = seen != staged.end() ? seen->second : log.version(append.stream);
    if (current != append.base_version) {
      throw_moved(database, append.stream.describe(), append.base_version, current);
    }
    staged[append.stream] = append.events.back().version;
  }
}

void check_saga_saves(const Database& database, const std::map<SagaId, SagaRecord>& sagas,
                      const std::vector<StagedSagaSave>& saves) {
  std::map<SagaId, std::int64_t> staged;
  for (const StagedSagaSave& save : saves) {
    const auto seen = staged.find(save.saga);
    std::int64_t current = kNewSaga;
    if (seen != staged.end()) {
      current = seen->second;
    } else if (const auto found = sagas.find(save.saga); found != sagas.end()) {
      current = found->second.version;
    }
    if (current != save.expected_version) {
      // The conflict a save detects itself, found at commit instead: the same error, so
      // that a caller retries a saga step whichever moment the other step won.
      throw kit::saga_conflict(database.describe(), save.saga, save.expected_version, current);
    }
    staged[save.saga] = save.record.version;
  }
}

}  // namespace

Database::Database(const Clock& clock) : clock_(clock), id_(++last_database_id) {}

std::string Database::describe() const {
  return "memory database " + std::to_string(id_);
}

std::optional<Terms> Database::find(std::string_view table, const Terms& key) const {
  std::shared_lock lock(mutex_);
  const auto t = state_.tables.find(table);
  if (t == state_.tables.end()) {
    return std::nullopt;
  }
  const auto row = t->second.find(key);
  if (row == t->second.end()) {
    return std::nullopt;
  }
  return row->second;
}

std::size_t Database::count(std::string_view table) const {
  std::shared_lock lock(mutex_);
  const auto t = state_.tables.find(table);
  return t == state_.tables.end() ? 0 : t->second.size();
}

std::int64_t Database::stream_version(const StreamId& stream) const {
  std::shared_lock lock(mutex_);
  return state_.events.version(stream);
}

std::optional<SagaRecord> Database::find_saga(const SagaId& saga) const {
  std::shared_lock lock(mutex_);
  const auto found = state_.sagas.find(saga);
  if (found == state_.sagas.end()) {
    return std::nullopt;
  }
  return found->second;
}

void Database::commit(const Staged& staged) {
  commit_locked(staged);
  if (!staged.list<StagedAppend>().empty())
    events_appended_->notify();
}

void Database::commit_locked(const Staged& staged) {
  std::unique_lock lock(mutex_);
  // Inserts first: a dedup row committed by a concurrent delivery is the usual loser's
  // reason, and the dispatcher resolves it to skipped_duplicate.
  check_inserts(state_.tables, staged.list<StagedInsert>());
  check_appends(*this, state_.events, staged.list<StagedAppend>());
  check_saga_saves(*this, state_.sagas, staged.list<StagedSagaSave>());
  for (const StagedInsert& insert : staged.list<StagedInsert>()) {
    state_.tables[insert.table].emplace(insert.key, insert.values);
  }
  for (const StagedAppend& append : staged.list<StagedAppend>()) {
    state_.events.append(append.stream, append.events);
  }
  for (const StagedSagaSave& save : staged.list<StagedSagaSave>()) {
    state_.sagas.insert_or_assign(save.saga, save.record);
  }
}

void Database::read(const std::function<void(const State&)>& reader) const {
  std::shared_lock lock(mutex_);
  reader(state_);
}

void Database::write(const std::function<void(State&)>& writer) {
  std::unique_lock lock(mutex_);
  writer(state_);
}

void throw_unique_violation(std::string_view table, const Terms& key, std::string_view when) {
  std::string terms;
  for (const std::string& term : key) {
    terms += (terms.empty() ? "'" : ", '") + term + "'";
  }
  throw UniqueViolationError(std::string(table), "memory table '" + std::string(table) +
                                                     "': a row with key (" + terms +
                                                     ") already exists (" + std::string(when) +
                                                     "); keys are unique, write each key once");
}

}  // namespace docket::memory::detail
