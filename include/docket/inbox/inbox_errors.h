// Errors of the transactional inbox and of the stores behind it.
//
// Thread-safety: exception objects are immutable after construction.
#ifndef DOCKET_INBOX_INBOX_ERRORS_H_
#define DOCKET_INBOX_INBOX_ERRORS_H_

#include <string>
#include <utility>

#include "docket/core/error.h"

namespace docket {

// A write violated a primary-key or unique constraint. Raised by every provider for
// the dedup row and for writes a handler makes through the provider's transaction
// wrapper, so that the dispatcher can tell a concurrent duplicate delivery (resolved
// to skipped_duplicate) from a handler's own violation (propagated unchanged).
// `table()` names the table (or memory table) whose constraint failed.
class UniqueViolationError : public InfrastructureError {
 public:
  UniqueViolationError(std::string table, const std::string& message)
      : InfrastructureError(message), table_(std::move(table)) {}
  const std::string& table() const noexcept { return table_; }

 private:
  std::string table_;
};

// The inbox's store failed around the handler, not the handler: beginning, recording
// or committing a delivery's unit of work (InboxDispatcher::dispatch), or claiming or
// marking a claim-inbox entry (ClaimRunner::run). The store's own exception is nested
// (std::rethrow_if_nested), and what() quotes it. Nothing the handler staged committed,
// or (a failed commit or mark) it is unknown whether it did: a redelivery decides, and
// the inbox skips it if it did. The consumer runner returns such a delivery without
// counting it toward max_deliveries, so an outage never dead-letters a good message.
// The store's failure is its InfrastructureError (down, connection lost) or its
// ConfigurationError at run time (credentials refused or expired): a fault of the
// deployment, which a redelivery after it is mended finds in order, never the
// message's. Not one of these: a unique violation at commit (the handler's own write,
// or a concurrent duplicate: UniqueViolationError, DuplicateDeliveryError), a
// CommitLimitError, and an InvalidInputError for a write the store will never take.
class InboxStoreError : public InfrastructureError {
 public:
  using InfrastructureError::InfrastructureError;
};

// The unit of work's own dedup record was found written already when it committed:
// the store itself established that this delivery is a duplicate (on DynamoDB, the
// cancelled transaction's reason for the dedup item; on Firestore, the dedup document
// read back after a refused commit). The dispatcher reports it as a skipped duplicate
// without asking the store again. Nothing of the unit was written.
class DuplicateDeliveryError : public UniqueViolationError {
 public:
  using UniqueViolationError::UniqueViolationError;
};

// A unit of work would hold more writes, or more bytes, than the store's one atomic
// commit takes (StoreCapabilities::max_writes_per_commit, max_bytes_per_commit). Thrown
// when the write is staged, before anything is sent: nothing was written. dispatch_batch
// reacts to it by committing the messages staged before and giving the message its own
// unit of work; a single message over the limit fails with it.
class CommitLimitError : public ConfigurationError {
 public:
  using ConfigurationError::ConfigurationError;
};

// A condition a handler attached to one of its writes (a DynamoDB ConditionExpression)
// did not hold when the unit of work committed, so nothing in the unit was written.
// `table()` names the table of the write whose condition failed; the message names the
// item and the condition.
class ConditionFailedError : public Error {
 public:
  ConditionFailedError(std::string table, const std::string& message)
      : Error(message), table_(std::move(table)) {}
  const std::string& table() const noexcept { return table_; }

 private:
  std::string table_;
};

// A message arrived whose event type has no registered handler. The message is not
// marked processed, so the transport redelivers it once a handler is deployed.
class UnhandledEventTypeError : public InvalidInputError {
 public:
  UnhandledEventTypeError(std::string event_type, std::string message_id,
                          const std::string& message)
      : InvalidInputError(message),
        event_type_(std::move(event_type)),
        message_id_(std::move(message_id)) {}
  const std::string& event_type() const noexcept { return event_type_; }
  const std::string& message_id() const noexcept { return message_id_; }

 private:
  std::string event_type_;
  std::string message_id_;
};

// A message's payload did not decode with its event type's codec. The message is not
// marked processed.
class PayloadDecodeError : public InvalidInputError {
 public:
  PayloadDecodeError(std::string event_type, std::string message_id, const std::string& message)
      : InvalidInputError(message),
        event_type_(std::move(event_type)),
        message_id_(std::move(message_id)) {}
  const std::string& event_type() const noexcept { return event_type_; }
  const std::string& message_id() const noexcept { return message_id_; }

 private:
  std::string event_type_;
  std::string message_id_;
};

}  // namespace docket

#endif  // DOCKET_INBOX_INBOX_ERRORS_H_
