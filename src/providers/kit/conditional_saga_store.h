// A SagaStore whose provider writes a saga on a condition its server checks (DynamoDB's
// condition expressions, Cosmos DB's If-Match and create, Firestore's preconditions):
// what such a save writes and how it is refused when the condition fails, written once.
//
// The record (saved_record): version expected_version + 1, the request's state and
// status, updated_at (and started_at) the request's time, completed_at the request's
// time when the save completes the saga. A provider whose write replaces the whole saga
// sets started_at from the saga as read; one whose write updates fields leaves it out.
//
// The refusal (refusal): a save whose condition failed reads the saga again and reports
// what it met, `found` (nullopt: no saga). The saga completed at the version expected
// throws completed_saga_error (InvalidInputError, "Nothing was written"), the same on
// every provider; anything else is a VersionConflict naming the saga, the version
// expected and the version found (kNewSaga where there is none).
//
// Thread-safety: the helpers are pure; the store is as its provider says.
#ifndef DOCKET_PROVIDERS_KIT_CONDITIONAL_SAGA_STORE_H_
#define DOCKET_PROVIDERS_KIT_CONDITIONAL_SAGA_STORE_H_

#include <optional>

#include "docket/core/clock.h"
#include "docket/sagas/saga_store.h"

namespace docket::kit {

class ConditionalSagaStore : public SagaStore {
 protected:
  explicit ConditionalSagaStore(const Clock& clock) noexcept : SagaStore(clock) {}

  // The record a save of `request` writes, started_at the request's time.
  static SagaRecord saved_record(const SaveRequest& request);

  // What a save of `request` whose condition failed met in `found`, the saga read
  // after the failure (nullopt: none): throws completed_saga_error for the saga
  // completed at the version expected, else the conflict.
  static SagaSaveResult refusal(const SaveRequest& request, const std::optional<SagaRecord>& found);
};

}  // namespace docket::kit

#endif  // DOCKET_PROVIDERS_KIT_CONDITIONAL_SAGA_STORE_H_
