// The transactional inbox dispatcher: effectively-once processing of a message's
// local side effects over at-least-once delivery.
//
// dispatch(envelope), for the ambient tenant and the options' consumer id:
//   1. open a unit of work on the store;
//   2. record (tenant, consumer id, message id); if already recorded, return
//      kSkippedDuplicate without running any handler;
//   3. run every handler of the event type in that same transaction;
//   4. commit once and return kProcessed.
// A handler throw (or an unknown event type, or a payload that does not decode) rolls
// everything back and propagates unchanged: no dedup row, no effect, and the transport
// redelivers. A UniqueViolationError from a handler or from commit is resolved by
// re-checking the dedup row in a fresh transaction: committed (a concurrent delivery
// won) -> kSkippedDuplicate; otherwise it was the handler's own violation, which
// propagates unchanged.
//
// During handlers and commit a MessageContextScope makes the message current; the
// previous context is restored afterwards, also on failure.
//
// With an observer in the options (docket/core/observer.h), each valid message is a span:
// on_message_begin before its unit of work, on_message_end with its outcome (processed,
// skipped_duplicate, failed) after it, carrying the envelope's trace context. An
// envelope validate_envelope refuses is not observed (its fields may not be text).
//
// Invariant: when the handlers require a transaction type, it is the store's (checked at
// construction), so a typed handler receives its provider's transaction without a
// per-message down-cast.
//
// Thread-safety: dispatch() and dispatch_batch() may be called from many threads at
// once. The store must outlive the dispatcher.
#ifndef DOCKET_INBOX_INBOX_DISPATCHER_H_
#define DOCKET_INBOX_INBOX_DISPATCHER_H_

#include <exception>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "docket/inbox/handler_registry.h"
#include "docket/inbox/inbox_envelope.h"
#include "docket/inbox/inbox_options.h"
#include "docket/inbox/inbox_store.h"

namespace docket {

enum class DispatchOutcome {
  kProcessed,         // handlers ran; their effects and the dedup row committed
  kSkippedDuplicate,  // already processed; this call committed nothing
  kUnhandled,         // no handler for its type (UnhandledTypes::kMarkProcessed): only its
                      // dedup row committed
};

// "processed", "skipped_duplicate" or "unhandled".
std::string_view to_string(DispatchOutcome outcome) noexcept;

// One message's result in a batch: an outcome, or the error that rolled it back.
struct BatchItemResult {
  std::string message_id;
  std::optional<DispatchOutcome> outcome;
  std::exception_ptr error;  // set exactly when outcome is empty

  bool ok() const noexcept { return outcome.has_value(); }
};

// What dispatch_batch does with the messages after one that failed.
enum class AfterBatchFailure {
  kContinue,  // dispatch them: each commits or fails on its own
  kStop,      // leave them undispatched (an ordered feed must not run past a failure)
};

class InboxDispatcher {
 public:
  // Throws ConfigurationError, naming both types, when the handlers are written against
  // a transaction type (HandlerRegistry::required_transaction) other than the store's
  // (InboxStore::transaction_type): a handler of another provider is refused here, before
  // any message.
  InboxDispatcher(InboxStore& store, InboxOptions options, HandlerRegistry handlers);

  // Throws InvalidInputError (envelope), whatever a handler threw, or InboxStoreError
  // when the store failed to begin, record or commit the unit (inbox_errors.h); see above.
  DispatchOutcome dispatch(const Envelope& envelope) const;

  // Dispatches every envelope in ONE transaction with a savepoint per message: a
  // message that fails (invalid envelope, handler throw, unknown type, undecodable
  // payload, own unique violation, the store failing to record it: InboxStoreError) is
  // rolled back alone and reported in its result while the others commit together.
  // Results are in input order. Throws only when the transaction itself fails
  // (InboxStoreError when the store could not begin or commit it); then nothing of that
  // transaction is committed. With AfterBatchFailure::kStop the messages after the
  // first failed one are not dispatched and have no result: the results end at the
  // failed message, and only the messages before it commit. A batch of more messages
  // than the store's max_writes_per_commit (docket/core/store_capabilities.h) is refused with
  // ConfigurationError before anything is written. Where the messages' writes (dedup
  // records and handler writes) would take one commit past the store's limits, the
  // batch is split: the message whose writes were refused (CommitLimitError) is rolled
  // back, the messages before it commit, and it runs again (its handlers too) in a new
  // transaction; each transaction is whole, so a message is never committed in part,
  // and a transaction that fails after an earlier one committed leaves that one's
  // messages recorded (a redelivery skips them). A message whose writes alone exceed
  // the limit fails alone with CommitLimitError. A store that sends a batch's messages
  // together (spi::InboxUnit::defer_segments: PostgreSQL) finds a message's failure after
  // later messages' handlers ran; results and commits are as above, and with kStop
  // those later handlers' writes are discarded. On a store that learns outcomes only at
  // its one commit (memory, DynamoDB, Firestore), a unit defeated by another commit (a
  // concurrent delivery, a stream or saga that moved) runs again, and a unit whose
  // commit refused one message's write runs its messages again one to a unit, so that
  // the message fails alone (docs/inbox.md, "Batches").
  std::vector<BatchItemResult> dispatch_batch(
      std::span<const Envelope> envelopes,
      AfterBatchFailure after_failure = AfterBatchFailure::kContinue) const;

  const InboxOptions& options() const noexcept { return options_; }
  InboxStore& store() const noexcept { return store_; }
  // The handlers, e.g. to ask which event types this consumer handles.
  const HandlerRegistry& handlers() const noexcept { return handlers_; }

 private:
  // dispatch() after the envelope was validated, unobserved.
  DispatchOutcome dispatch_valid(const Envelope& envelope, const TenantId& tenant) const;

  InboxStore& store_;
  InboxOptions options_;
  HandlerRegistry handlers_;
};

}  // namespace docket

#endif  // DOCKET_INBOX_INBOX_DISPATCHER_H_
