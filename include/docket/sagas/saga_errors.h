// Errors of the saga coordinator (docket/sagas/saga_coordinator.h). Each is thrown from
// inside an inbox handler, so the dispatcher rolls the whole unit of work back (no
// saga change, no outbox message, no dedup row) and propagates it: the message is not
// marked processed and the transport redelivers it.
//
// Thread-safety: exception objects are immutable after construction.
#ifndef DOCKET_SAGAS_SAGA_ERRORS_H_
#define DOCKET_SAGAS_SAGA_ERRORS_H_

#include <cstdint>
#include <string>
#include <utility>

#include "docket/core/error.h"
#include "docket/sagas/saga_id.h"

namespace docket {

// A message that only continues a saga (registered with continues(), policy
// IfSagaMissing::kRetry) arrived for a saga that does not exist: typically it overtook
// the message that starts the saga. Retry later; once the saga exists the redelivery
// runs its step.
class SagaNotFoundError : public Error {
 public:
  SagaNotFoundError(SagaId saga, std::string event_type, std::string message_id,
                    const std::string& message)
      : Error(message),
        saga_(std::move(saga)),
        event_type_(std::move(event_type)),
        message_id_(std::move(message_id)) {}
  const SagaId& saga() const noexcept { return saga_; }
  const std::string& event_type() const noexcept { return event_type_; }
  const std::string& message_id() const noexcept { return message_id_; }

 private:
  SagaId saga_;
  std::string event_type_;
  std::string message_id_;
};

// Another step of the same saga saved first: the version the step loaded is no longer
// the saga's. Nothing committed; dispatch the message again and the step runs on the
// new state. (On PostgreSQL steps of an existing saga queue on its row lock, so this
// happens only when two messages race to start one saga; SQLite serialises every
// unit of work and never sees it.)
class SagaConflictError : public ConcurrencyConflictError {
 public:
  SagaConflictError(SagaId saga, std::int64_t expected_version, std::int64_t actual_version,
                    const std::string& message)
      : ConcurrencyConflictError(expected_version, actual_version, message),
        saga_(std::move(saga)) {}
  const SagaId& saga() const noexcept { return saga_; }

 private:
  SagaId saga_;
};

// The saga's stored state did not decode with the coordinator's state codec (a state
// format changed without a compatible decoder, or the row was changed outside docket).
// Redelivery fails the same way until the codec reads the stored format.
class SagaStateError : public Error {
 public:
  SagaStateError(SagaId saga, const std::string& message)
      : Error(message), saga_(std::move(saga)) {}
  const SagaId& saga() const noexcept { return saga_; }

 private:
  SagaId saga_;
};

}  // namespace docket

#endif  // DOCKET_SAGAS_SAGA_ERRORS_H_
