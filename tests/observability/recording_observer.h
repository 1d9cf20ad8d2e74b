// An Observer (docket/core/observer.h) that records every call, for the tests of the
// hooks: begins and ends with their tokens, claims and appends. Can be told to throw
// from every hook, to show that an observer that throws changes no outcome.
//
// Thread-safety: every hook and reader takes the one mutex.
#ifndef DOCKET_TESTS_OBSERVABILITY_RECORDING_OBSERVER_H_
#define DOCKET_TESTS_OBSERVABILITY_RECORDING_OBSERVER_H_

#include <chrono>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "docket/core/observer.h"

namespace docket::testing {

// A MessageStart with its views copied.
struct RecordedStart {
  MessageRole role = MessageRole::kProcess;
  std::string consumer_or_destination, message_id, event_type, tenant, traceparent, tracestate;
  int attempt = 0;
  bool batched = false;

  explicit RecordedStart(const MessageStart& s)
      : role(s.role),
        consumer_or_destination(s.consumer_or_destination),
        message_id(s.message_id),
        event_type(s.event_type),
        tenant(s.tenant),
        traceparent(s.traceparent),
        tracestate(s.tracestate),
        attempt(s.attempt),
        batched(s.batched) {}
};

struct RecordedSpan {
  SpanToken token = 0;
  RecordedStart begin;
  std::optional<RecordedStart> end_start{};  // what the end was called with
  std::optional<MessageOutcome> outcome{};
  std::string error{};
  std::chrono::nanoseconds duration{0};
  int ends = 0;  // how many ends named this span's token
};

struct RecordedClaim {
  std::string handler_type, message_id, tenant;
  ClaimTransition transition;
  std::chrono::nanoseconds handler_time;
};

struct RecordedAppend {
  std::string provider, aggregate_type, tenant;
  std::size_t events;
  bool conflict, in_transaction;
};

struct RecordedSagaConflict {
  std::string saga_type;
  std::string tenant;
  std::int64_t expected_version = 0;
  std::int64_t actual_version = 0;
};

class RecordingObserver final : public Observer {
 public:
  explicit RecordingObserver(bool throw_from_hooks = false) : throws_(throw_from_hooks) {}

  SpanToken on_message_begin(const MessageStart& message) override {
    std::lock_guard lock(mutex_);
    spans_.push_back(RecordedSpan{.token = next_token_, .begin = RecordedStart(message)});
    maybe_throw();
    return next_token_++;
  }
  void on_message_end(SpanToken token, const MessageStart& message,
                      const MessageEnd& end) override {
    std::lock_guard lock(mutex_);
    bool found = false;
    for (RecordedSpan& span : spans_) {
      if (span.token == token) {
        found = true;
        ++span.ends;
        span.end_start.emplace(message);
        span.outcome = end.outcome;
        span.error = std::string(end.error);
        span.duration = end.duration;
      }
    }
    unmatched_ends_ += found ? 0 : 1;
    maybe_throw();
  }
  void on_claim(const ClaimObservation& claim) override {
    std::lock_guard lock(mutex_);
    claims_.push_back({std::string(claim.handler_type), std::string(claim.message_id),
                       std::string(claim.tenant), claim.transition, claim.handler_time});
    maybe_throw();
  }
  void on_append(const AppendObservation& append) override {
    std::lock_guard lock(mutex_);
    appends_.push_back({std::string(append.provider), std::string(append.aggregate_type),
                        std::string(append.tenant), append.events, append.conflict,
                        append.in_transaction});
    maybe_throw();
  }

  void on_saga_conflict(const SagaConflictObservation& conflict) override {
    std::lock_guard lock(mutex_);
    saga_conflicts_.push_back({std::string(conflict.saga_type), std::string(conflict.tenant),
                               conflict.expected_version, conflict.actual_version});
    maybe_throw();
  }

  std::vector<RecordedSpan> spans() const {
    std::lock_guard lock(mutex_);
    return spans_;
  }
  std::vector<RecordedClaim> claims() const {
    std::lock_guard lock(mutex_);
    return claims_;
  }
  std::vector<RecordedAppend> appends() const {
    std::lock_guard lock(mutex_);
    return appends_;
  }
  std::vector<RecordedSagaConflict> saga_conflicts() const {
    std::lock_guard lock(mutex_);
    return saga_conflicts_;
  }
  int unmatched_ends() const {
    std::lock_guard lock(mutex_);
    return unmatched_ends_;
  }

 private:
  void maybe_throw() const {
    if (throws_) {
      throw std::runtime_error("the observer fails");
    }
  }

  const bool throws_;
  mutable std::mutex mutex_;
  SpanToken next_token_ = 1;
  std::vector<RecordedSpan> spans_;
  std::vector<RecordedClaim> claims_;
  std::vector<RecordedAppend> appends_;
  std::vector<RecordedSagaConflict> saga_conflicts_;
  int unmatched_ends_ = 0;
};

}  // namespace docket::testing

#endif  // DOCKET_TESTS_OBSERVABILITY_RECORDING_OBSERVER_H_
