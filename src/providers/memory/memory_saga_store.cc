#include "providers/memory/memory_saga_store.h"

#include <algorithm>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "docket/memory/saga_store.h"
#include "providers/memory/memory_database_access.h"
#include "providers/memory/memory_unit.h"

namespace docket::memory {
namespace detail {

SagaSaveResult MemorySagaStore::do_save(const SaveRequest& request) {
  std::optional<SagaSaveResult> result;
  database_->write([&](State& state) {
    const auto found = state.sagas.find(request.saga);
    const WriteResult<SagaRecord> next =
        next_record(request, found == state.sagas.end() ? std::nullopt
                                                        : std::optional<SagaRecord>(found->second));
    if (next.is_conflict()) {
      result = next.conflict();
      return;
    }
    result = SagaSaved{.new_version = next.success().version};
    state.sagas.insert_or_assign(request.saga, next.success());
  });
  return std::move(*result);
}

std::optional<SagaRecord> MemorySagaStore::do_load(const SagaId& saga) {
  return database_->find_saga(saga);
}

SagaSaveResult MemorySagaStore::do_save_in(HandlerTransaction& transaction,
                                           const SaveRequest& request) {
  Unit& unit = joined_unit(transaction, *database_, [&](const std::string& reason) {
    return cannot_join_error(transaction, reason);
  });
  const WriteResult<SagaRecord> next = next_record(request, unit.find_saga(request.saga));
  if (next.is_conflict()) {
    return next.conflict();
  }
  unit.stage_saga_save(StagedSagaSave{.saga = request.saga,
                                      .expected_version = request.expected_version,
                                      .record = next.success()});
  return SagaSaved{.new_version = next.success().version};
}

std::optional<SagaRecord> MemorySagaStore::do_load_in(HandlerTransaction& transaction,
                                                      const SagaId& saga) {
  return joined_unit(
             transaction, *database_,
             [&](const std::string& reason) { return cannot_join_error(transaction, reason); })
      .find_saga(saga);
}

SagaPage MemorySagaStore::do_list(const SagaListRequest& request) {
  SagaPage page;
  database_->read([&](const State& state) {
    auto it = request.after ? state.sagas.upper_bound(request.after->saga) : state.sagas.begin();
    for (; it != state.sagas.end(); ++it) {
      const auto& [saga, record] = *it;
      if (request.tenant && saga.tenant() != *request.tenant) {
        if (saga.tenant() > *request.tenant) {
          return;  // past the tenant's sagas: none is left
        }
        continue;
      }
      if ((request.status && record.status != *request.status) ||
          (request.saga_type && saga.saga_type() != *request.saga_type) ||
          (request.updated_before && record.updated_at >= *request.updated_before)) {
        continue;
      }
      if (page.sagas.size() == request.limit) {
        // One more match behind the page: there is a next page.
        const SagaSummary& last = page.sagas.back();
        page.next = SagaListPosition{.saga = last.saga, .updated_at = last.updated_at};
        return;
      }
      page.sagas.push_back(SagaSummary{.saga = saga,
                                       .version = record.version,
                                       .status = record.status,
                                       .started_at = record.started_at,
                                       .updated_at = record.updated_at,
                                       .completed_at = record.completed_at});
    }
  });
  return page;
}

std::size_t MemorySagaStore::do_purge_completed_batch(Timestamp cutoff, std::size_t batch_size,
                                                      const TenantId* tenant) {
  std::size_t count = 0;
  database_->write([&](State& state) {
    using Candidate = std::tuple<Timestamp, std::map<SagaId, SagaRecord>::iterator>;
    std::vector<Candidate> candidates;
    for (auto it = state.sagas.begin(); it != state.sagas.end(); ++it) {
      const SagaRecord& record = it->second;
      if (record.completed_at && *record.completed_at < cutoff &&
          (tenant == nullptr || it->first.tenant() == *tenant)) {
        candidates.emplace_back(*record.completed_at, it);
      }
    }
    // Oldest completion first, as a SQL provider's ORDER BY completed_at LIMIT n.
    count = std::min(batch_size, candidates.size());
    std::partial_sort(candidates.begin(), candidates.begin() + static_cast<std::ptrdiff_t>(count),
                      candidates.end(), [](const Candidate& a, const Candidate& b) {
                        return std::get<0>(a) < std::get<0>(b);
                      });
    for (std::size_t i = 0; i < count; ++i) {
      state.sagas.erase(std::get<1>(candidates[i]));
    }
  });
  return count;
}

}  // namespace detail

std::unique_ptr<SagaStore> open_saga_store(const Database& database) {
  return std::make_unique<detail::MemorySagaStore>(DatabaseAccess::state(database));
}

std::unique_ptr<SagaStore> open_saga_store(const Clock& clock) {
  return open_saga_store(open_database(clock));
}

}  // namespace docket::memory
