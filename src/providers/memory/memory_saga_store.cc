#include "providers/memory/memory_saga_store.h"

#include <algorithm>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "docket/memory/saga_store.h"

namespace docket::memory {
namespace detail {

SagaSaveResult MemorySagaStore::do_save(const SaveRequest& request) {
  std::unique_lock lock(mutex_);
  auto found = sagas_.find(request.saga);
  const std::int64_t current = found == sagas_.end() ? kNewSaga : found->second.version;
  if (current != request.expected_version) {
    return VersionConflict{.subject = request.saga.describe(),
                           .expected_version = request.expected_version,
                           .actual_version = current};
  }
  const bool completing = request.status == SagaStatus::kCompleted;
  if (found == sagas_.end()) {
    SagaRecord record{.version = 0,
                      .state = std::string(request.state),
                      .status = request.status,
                      .started_at = request.now,
                      .updated_at = request.now,
                      .completed_at = {}};
    if (completing) {
      record.completed_at = request.now;
    }
    sagas_.emplace(request.saga, std::move(record));
    return SagaSaved{.new_version = 0};
  }
  SagaRecord& record = found->second;
  if (record.status == SagaStatus::kCompleted) {
    throw completed_saga_error(request.saga, *record.completed_at);
  }
  record.state = std::string(request.state);
  record.status = request.status;
  record.updated_at = request.now;
  if (completing) {
    record.completed_at = request.now;
  }
  return SagaSaved{.new_version = ++record.version};
}

std::optional<SagaRecord> MemorySagaStore::do_load(const SagaId& saga) {
  std::shared_lock lock(mutex_);
  auto found = sagas_.find(saga);
  if (found == sagas_.end()) {
    return std::nullopt;
  }
  return found->second;
}

std::size_t MemorySagaStore::do_purge_completed_batch(Timestamp cutoff, std::size_t batch_size,
                                                      const TenantId* tenant) {
  std::unique_lock lock(mutex_);
  using Candidate = std::tuple<Timestamp, std::map<SagaId, SagaRecord>::iterator>;
  std::vector<Candidate> candidates;
  for (auto it = sagas_.begin(); it != sagas_.end(); ++it) {
    const SagaRecord& record = it->second;
    if (record.completed_at && *record.completed_at < cutoff &&
        (tenant == nullptr || it->first.tenant() == *tenant)) {
      candidates.emplace_back(*record.completed_at, it);
    }
  }
  // Oldest completion first, as a SQL provider's ORDER BY completed_at LIMIT n.
  const std::size_t count = std::min(batch_size, candidates.size());
  std::partial_sort(
      candidates.begin(), candidates.begin() + static_cast<std::ptrdiff_t>(count), candidates.end(),
      [](const Candidate& a, const Candidate& b) { return std::get<0>(a) < std::get<0>(b); });
  for (std::size_t i = 0; i < count; ++i) {
    sagas_.erase(std::get<1>(candidates[i]));
  }
  return count;
}

}  // namespace detail

std::unique_ptr<SagaStore> open_saga_store(const Clock& clock) {
  return std::make_unique<detail::MemorySagaStore>(clock);
}

}  // namespace docket::memory
