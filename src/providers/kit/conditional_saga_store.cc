#include "providers/kit/conditional_saga_store.h"

#include <cstdint>
#include <string>

namespace docket::kit {

SagaRecord ConditionalSagaStore::saved_record(const SaveRequest& request) {
  SagaRecord record{.version = request.expected_version + 1,
                    .state = std::string(request.state),
                    .status = request.status,
                    .started_at = request.now,
                    .updated_at = request.now,
                    .completed_at = std::nullopt};
  if (request.status == SagaStatus::kCompleted) {
    record.completed_at = request.now;
  }
  return record;
}

SagaSaveResult ConditionalSagaStore::refusal(const SaveRequest& request,
                                             const std::optional<SagaRecord>& found) {
  const std::int64_t actual = found ? found->version : kNewSaga;
  if (found && actual == request.expected_version && found->completed_at) {
    throw completed_saga_error(request.saga, *found->completed_at);
  }
  return VersionConflict{.subject = request.saga.describe(),
                         .expected_version = request.expected_version,
                         .actual_version = actual};
}

}  // namespace docket::kit
