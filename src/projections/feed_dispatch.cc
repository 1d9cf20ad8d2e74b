#include "projections/feed_dispatch.h"

#include <cstddef>
#include <string>
#include <vector>

#include "docket/core/error.h"
#include "docket/core/tenant.h"

namespace docket {
namespace {

// The events being dispatched on this thread, index for index with their envelopes,
// for EventFeedConsumer::current_event. Scopes nest (a handler may run a consumer).
class CurrentEvents {
 public:
  CurrentEvents(std::span<const RecordedEvent* const> events, std::span<const Envelope> envelopes)
      : events_(events), envelopes_(envelopes), previous_(active_) {
    active_ = this;
  }
  ~CurrentEvents() { active_ = previous_; }
  CurrentEvents(const CurrentEvents&) = delete;
  CurrentEvents& operator=(const CurrentEvents&) = delete;

  static const CurrentEvents* active() noexcept { return active_; }

  // The event whose envelope carries `message_id`, or nullptr. Handlers run in order,
  // so the search starts at the last match: one comparison in the usual case.
  const RecordedEvent* find(const std::string& message_id) const {
    for (std::size_t n = 0; n < envelopes_.size(); ++n) {
      const std::size_t i = (cursor_ + n) % envelopes_.size();
      if (envelopes_[i].message_id == message_id) {
        cursor_ = i;
        return events_[i];
      }
    }
    return nullptr;
  }

 private:
  static thread_local const CurrentEvents* active_;

  std::span<const RecordedEvent* const> events_;
  std::span<const Envelope> envelopes_;
  const CurrentEvents* previous_;
  mutable std::size_t cursor_ = 0;
};

thread_local const CurrentEvents* CurrentEvents::active_ = nullptr;

}  // namespace

const RecordedEvent& EventFeedConsumer::current_event(const HandlerContext& ctx) {
  const CurrentEvents* current = CurrentEvents::active();
  const RecordedEvent* event =
      current != nullptr ? current->find(ctx.envelope().message_id) : nullptr;
  if (event == nullptr) {
    throw ConfigurationError("EventFeedConsumer::current_event: message '" +
                             ctx.envelope().message_id +
                             "' is not being dispatched by an event feed consumer on this "
                             "thread; call it only from a handler an EventFeedConsumer runs");
  }
  return *event;
}

Envelope to_envelope(const RecordedEvent& event) {
  Envelope envelope{.message_id = event.event_id.to_string(),
                    .event_type = event.type,
                    .payload = event.payload,
                    .occurred_at = event.occurred_at};
  if (!event.metadata.causation_id.empty()) {
    envelope.causation_id = event.metadata.causation_id;
  }
  if (!event.metadata.correlation_id.empty()) {
    envelope.correlation_id = event.metadata.correlation_id;
  }
  if (event.metadata.trace_context) {
    envelope.traceparent = event.metadata.trace_context->parent.to_string();
    envelope.tracestate = event.metadata.trace_context->state;
  }
  return envelope;
}

namespace projections {

std::optional<std::size_t> dispatch_run(const InboxDispatcher& dispatcher,
                                        std::span<const RecordedEvent* const> run,
                                        EventFeedPass& pass, std::exception_ptr& error) {
  std::vector<Envelope> envelopes;
  envelopes.reserve(run.size());
  for (const RecordedEvent* event : run) {
    envelopes.push_back(to_envelope(*event));
  }
  const CurrentEvents current(run, envelopes);
  const TenantScope tenant(run.front()->stream.tenant());
  std::vector<BatchItemResult> results;
  try {
    results = dispatcher.dispatch_batch(envelopes, AfterBatchFailure::kStop);
  } catch (...) {
    error = std::current_exception();  // nothing of the run committed
    return 0;
  }
  for (std::size_t i = 0; i < results.size(); ++i) {
    if (!results[i].ok()) {
      error = results[i].error;
      return i;
    }
    ++(*results[i].outcome == DispatchOutcome::kProcessed ? pass.processed : pass.skipped);
  }
  return std::nullopt;
}

}  // namespace projections
}  // namespace docket
