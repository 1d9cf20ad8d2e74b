#include "providers/kit/tagged_saga_store.h"

namespace docket::kit {

SagaSaveResult TaggedSagaStore::do_save(const SaveRequest& request) {
  SagaRecord record = saved_record(request);
  // Checked before anything is sent: a refusal sends nothing.
  before_save(request.saga, record);
  if (request.expected_version == kNewSaga) {
    if (create_saga(request.saga, record)) {
      return SagaSaved{.new_version = record.version};
    }
    return refusal(request, read_saga(request.saga).record);
  }
  const TaggedSaga current = read_saga(request.saga);
  if (!current.record || current.record->version != request.expected_version ||
      current.record->completed_at) {
    return refusal(request, current.record);
  }
  record.started_at = current.record->started_at;
  if (replace_saga(request.saga, record, current.base)) {
    return SagaSaved{.new_version = record.version};
  }
  return refusal(request, read_saga(request.saga).record);
}

}  // namespace docket::kit
