// The observer: what docket tells an application about the messages and events it
// handles, so that it can count them (docket/prometheus/prometheus_observer.h), trace
// them (OpenTelemetry: examples/otel_observer/) or log them.
//
// Attached explicitly, never global: InboxOptions (the transactional dispatcher),
// RelayOptions (the outbox relay), ClaimRunnerSettings::observer (the claim
// inbox runner) and EventStore::set_observer (appends). Where none is attached nothing
// is measured, allocated or called: a null observer costs one pointer test a message.
//
// Spans. The dispatcher and the relay call a begin hook before each message and the
// matching end hook after it, with the W3C trace context docket stores for the message
// (Envelope::traceparent/tracestate; the outbox message's), so that an observer can
// open a span per message whose parent is the producer's. Invariant: every begin is
// followed by exactly one end with the token it returned, on whatever the outcome (a
// failure, a batch abandoned, a relay stopped), and the MessageStart passed to both is
// the same message's. A begin that throws returned no token: its end gets token 0.
//
// Hooks never change an outcome: docket calls each inside a catch-all and drops what it
// throws (an observer that throws loses that one observation, nothing else). A hook
// must not call back into the component that called it.
//
// Thread-safety: hooks are called from every thread that dispatches, publishes,
// claims or appends, concurrently: an observer must be thread-safe. A begin and its end
// may run on different threads (the relay publishes on one thread and records on
// another).
#ifndef DOCKET_CORE_OBSERVER_H_
#define DOCKET_CORE_OBSERVER_H_

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace docket {

// What a begin hook returned, handed back to the matching end hook: the observer's own
// handle of its span (an index, a pointer's bits). docket only carries it.
using SpanToken = std::uint64_t;

// Which component handles a message: the inbox dispatcher processing it, or the relay
// publishing it.
enum class MessageRole {
  kProcess,  // InboxDispatcher::dispatch / dispatch_batch
  kPublish,  // Relay: one message of a published batch
};

// The message a span is about. Every view is valid only during the call.
struct MessageStart {
  MessageRole role = MessageRole::kProcess;
  // kProcess: the consumer id; kPublish: the destination (destination_of the row).
  std::string_view consumer_or_destination{};
  std::string_view message_id{};
  std::string_view event_type{};
  std::string_view tenant{};  // the ambient tenant's value ("__untenanted__" without one)
  // As stored or received; empty when absent, possibly malformed (parse with
  // docket::parse_trace_context, which never throws).
  std::string_view traceparent{};
  std::string_view tracestate{};
  int attempt = 1;       // kPublish: this publish's attempt (1 = first); kProcess: 1
  bool batched = false;  // kProcess: part of dispatch_batch (its messages share a commit)
};

// How a message's span ended.
enum class MessageOutcome {
  kProcessed,         // kProcess: handlers ran and committed
  kSkippedDuplicate,  // kProcess: processed before; nothing ran
  kUnhandled,         // kProcess: no handler for its type; marked processed, nothing ran
  kFailed,            // kProcess: rolled back (handler, payload, store); the error says
  kConfirmed,         // kPublish: the transport confirmed, the row is done
  kRetryScheduled,    // kPublish: failed, the next attempt is scheduled after backoff
  kParked,            // kPublish: failed for the last time (or refused for good)
  kLeaseLost,         // kPublish: published, but another relay's claim had taken the row
  kAbandoned,         // the message's fate is not known here: a batch whose commit failed
                      // or that stopped before it (kStop), a relay batch not recorded
};

// "processed", "skipped_duplicate", "unhandled", "failed", "confirmed", "retry_scheduled",
// "parked", "lease_lost", "abandoned": the outcome label of docket's metrics.
std::string_view to_string(MessageOutcome outcome) noexcept;

struct MessageEnd {
  MessageOutcome outcome = MessageOutcome::kProcessed;
  // begin to end on a steady clock: the handlers and commit (kProcess; a batched
  // message's is its batch's, the messages sharing one commit), the publish and the
  // recording of its result (kPublish).
  std::chrono::nanoseconds duration{0};
  std::string_view error{};  // kFailed, kRetryScheduled, kParked: why; else empty
};

// A claim inbox entry changing hands (ClaimRunner).
enum class ClaimTransition {
  kClaimed,           // this runner claimed it; its handler runs next
  kProcessed,         // the handler returned and the entry is marked processed
  kFailed,            // the handler threw; the entry is marked failed for a retry
  kSuperseded,        // the handler ran, but another claim took the entry over first
  kAlreadyProcessed,  // not claimed: processed before
  kHeldByAnother,     // not claimed: another claim holds it
};

// "claimed", "processed", "failed", "superseded", "already_processed",
// "held_by_another".
std::string_view to_string(ClaimTransition transition) noexcept;

struct ClaimObservation {
  std::string_view handler_type{};
  std::string_view message_id{};
  std::string_view tenant{};
  ClaimTransition transition = ClaimTransition::kClaimed;
  // kProcessed, kFailed, kSuperseded: the handler's run (a batch's handler alone,
  // without the batch's mark); else 0.
  std::chrono::nanoseconds handler_time{0};
};

// One EventStore::append call that reached the store (invalid input is not observed).
struct AppendObservation {
  std::string_view provider{};        // "sqlite", ...
  std::string_view aggregate_type{};  // the stream's aggregate type
  std::string_view tenant{};
  std::size_t events = 0;
  bool conflict = false;        // a version conflict: nothing was written
  bool in_transaction = false;  // staged in a handler's transaction, committed with it
  std::chrono::nanoseconds duration{0};
};

// A saga save that lost its optimistic-concurrency race, heard from a saga store the
// observer is set on (SagaStore::set_observer, docket/sagas/saga_store.h).
struct SagaConflictObservation {
  std::string_view saga_type{};
  std::string_view tenant{};
  std::int64_t expected_version = 0;
  std::int64_t actual_version = 0;
};

// Override the hooks wanted; the others do nothing.
class Observer {
 public:
  virtual ~Observer() = default;

  virtual SpanToken on_message_begin(const MessageStart& /*message*/) { return 0; }
  virtual void on_message_end(SpanToken /*token*/, const MessageStart& /*message*/,
                              const MessageEnd& /*end*/) {}
  virtual void on_claim(const ClaimObservation& /*claim*/) {}
  virtual void on_append(const AppendObservation& /*append*/) {}
  virtual void on_saga_conflict(const SagaConflictObservation& /*conflict*/) {}

 protected:
  Observer() = default;
  Observer(const Observer&) = default;
  Observer& operator=(const Observer&) = default;
};

}  // namespace docket

#endif  // DOCKET_CORE_OBSERVER_H_
