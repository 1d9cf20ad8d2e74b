// The sagas of a unit of work that buffers its writes until one atomic commit
// (DynamoDB's TransactWriteItems, a Firestore commit), so that SagaStore::load and
// save inside it keep the promises they keep in a SQL transaction:
//  - a load sees the unit's own latest save of the saga; before any, the saga as the
//    store read it the first time this unit asked (one read per saga and unit);
//  - a save checks its expected version against that view (a conflict is a value and
//    stages nothing) and stages the saga's whole new document;
//  - commit writes each saga ONCE, its latest staged save, on the condition that the
//    saga is still as first read (`Base`: what the provider's condition needs of that
//    read, a version or an update time). Another unit that saved the saga in between
//    fails that condition, and the commit throws saga_conflict() for it: nothing of
//    the unit is written and a redelivery runs the step on the saga's new state.
//
// Staged saves are a kind of the unit's WriteSet (SagaSave<Write>), so rolling back to a
// savepoint drops them and the view falls back to what remains; reads are not writes
// and are kept.
//
// Thread-safety: belongs to the one thread running the unit of work.
#ifndef DOCKET_PROVIDERS_KIT_UNIT_SAGAS_H_
#define DOCKET_PROVIDERS_KIT_UNIT_SAGAS_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "docket/core/error.h"
#include "docket/sagas/saga_errors.h"
#include "docket/sagas/saga_id.h"
#include "docket/sagas/saga_store.h"

namespace docket::kit {

// One staged save: the record it leaves and the provider's write of it (a
// TransactWriteItems action, a Firestore write), checked against the limits and
// carrying its commit condition (the saga as first read) when staged.
template <class Write>
struct SagaSave {
  SagaId saga;
  SagaRecord record;
  Write write;
};

// The saga as a unit first read it: its record (nullopt: none) and what the
// provider's commit condition needs of that read.
template <class Base>
struct SagaRead {
  std::optional<SagaRecord> record;
  Base base{};
};

template <class Base, class Write>
class UnitSagas {
 public:
  using Save = SagaSave<Write>;

  // The saga as the unit sees it: the latest of `staged` for it, else its first read,
  // made by `read()` (returning a SagaRead<Base>) the first time only.
  template <class Read>
  std::optional<SagaRecord> view(const std::vector<Save>& staged, const SagaId& saga, Read&& read) {
    if (const Save* save = latest(staged, saga)) {
      return save->record;
    }
    auto found = reads_.find(saga);
    if (found == reads_.end()) {
      found = reads_.emplace(saga, read()).first;
    }
    return found->second.record;
  }

  // The first read of `saga`. Precondition: view() was called for it.
  const SagaRead<Base>& first_read(const SagaId& saga) const { return reads_.at(saga); }

  // The latest of `staged` for `saga`, or null.
  static const Save* latest(const std::vector<Save>& staged, const SagaId& saga) {
    const auto found = std::find_if(staged.rbegin(), staged.rend(),
                                    [&](const Save& save) { return save.saga == saga; });
    return found == staged.rend() ? nullptr : &*found;
  }

  // Stages `save` in `writes` (the unit's WriteSet, which has the kind Save): one
  // write for the saga's first save in the unit, none for a later one, since commit
  // sends the latest alone. Its bytes count in full each time (an over-estimate of
  // the commit's size when a saga is saved twice).
  template <class WriteSet>
  static void stage(WriteSet& writes, Save save, std::size_t bytes) {
    const bool first = latest(writes.template list<Save>(), save.saga) == nullptr;
    writes.add(std::move(save), first ? 1 : 0, bytes);
  }

  // What commit writes: the latest save of each saga, in the order of each saga's
  // first save.
  static std::vector<const Save*> latest_saves(const std::vector<Save>& staged) {
    std::vector<const Save*> saves;
    for (const Save& save : staged) {
      const auto known = std::find_if(saves.begin(), saves.end(),
                                      [&](const Save* s) { return s->saga == save.saga; });
      if (known == saves.end()) {
        saves.push_back(latest(staged, save.saga));
      }
    }
    return saves;
  }

 private:
  std::map<SagaId, SagaRead<Base>> reads_;
};

// The error of a commit whose save of `saga` expected it at `expected` (the version
// the unit read) and found `actual` (kNewSaga: none) because another unit of work
// committed a save of it in between; `store` names the store.
inline SagaConflictError saga_conflict(std::string_view store, const SagaId& saga,
                                       std::int64_t expected, std::int64_t actual) {
  const std::string now = actual < 0 ? "does not exist" : "is at version " + std::to_string(actual);
  const std::string saved =
      expected == kNewSaga ? std::string("to create it") : "version " + std::to_string(expected);
  return SagaConflictError(
      saga, expected, actual,
      std::string(store) + ": " + saga.describe() + " " + now +
          ", but this unit of work saved it expecting " + saved +
          " (another unit of work committed a save of it in between); nothing of this unit of "
          "work was written. Dispatch the message again: its step runs on the saga's new state.");
}

}  // namespace docket::kit

#endif  // DOCKET_PROVIDERS_KIT_UNIT_SAGAS_H_
