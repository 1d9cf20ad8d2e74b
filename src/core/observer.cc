#include "docket/core/observer.h"

#include <exception>

#include "core/observing.h"

namespace docket {

std::string_view to_string(MessageOutcome outcome) noexcept {
  switch (outcome) {
    case MessageOutcome::kProcessed:
      return "processed";
    case MessageOutcome::kSkippedDuplicate:
      return "skipped_duplicate";
    case MessageOutcome::kUnhandled:
      return "unhandled";
    case MessageOutcome::kFailed:
      return "failed";
    case MessageOutcome::kConfirmed:
      return "confirmed";
    case MessageOutcome::kRetryScheduled:
      return "retry_scheduled";
    case MessageOutcome::kParked:
      return "parked";
    case MessageOutcome::kLeaseLost:
      return "lease_lost";
    case MessageOutcome::kAbandoned:
      return "abandoned";
  }
  return "unknown";
}

std::string_view to_string(ClaimTransition transition) noexcept {
  switch (transition) {
    case ClaimTransition::kClaimed:
      return "claimed";
    case ClaimTransition::kProcessed:
      return "processed";
    case ClaimTransition::kFailed:
      return "failed";
    case ClaimTransition::kSuperseded:
      return "superseded";
    case ClaimTransition::kAlreadyProcessed:
      return "already_processed";
    case ClaimTransition::kHeldByAnother:
      return "held_by_another";
  }
  return "unknown";
}

namespace detail {

std::string_view current_error_text() noexcept {
  try {
    throw;
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "a non-standard exception";
  }
}

MessageSpan::MessageSpan(Observer* observer, const MessageStart& start) noexcept
    : observer_(observer), start_(start) {
  if (observer_ == nullptr) {
    return;
  }
  began_ = std::chrono::steady_clock::now();
  try {
    token_ = observer_->on_message_begin(start_);
  } catch (...) {  // NOLINT(bugprone-empty-catch): an observer never changes an outcome
    token_ = 0;
  }
}

MessageSpan::MessageSpan(MessageSpan&& other) noexcept
    : observer_(std::exchange(other.observer_, nullptr)),
      start_(other.start_),
      token_(other.token_),
      began_(other.began_) {}

MessageSpan& MessageSpan::operator=(MessageSpan&& other) noexcept {
  if (this != &other) {
    end(MessageOutcome::kAbandoned);
    observer_ = std::exchange(other.observer_, nullptr);
    start_ = other.start_;
    token_ = other.token_;
    began_ = other.began_;
  }
  return *this;
}

void MessageSpan::end(MessageOutcome outcome, std::string_view error) noexcept {
  Observer* observer = std::exchange(observer_, nullptr);
  if (observer == nullptr) {
    return;
  }
  const MessageEnd finished{
      .outcome = outcome, .duration = std::chrono::steady_clock::now() - began_, .error = error};
  notify(observer, [&](Observer& o) { o.on_message_end(token_, start_, finished); });
}

}  // namespace detail
}  // namespace docket
