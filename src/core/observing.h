// How docket calls an Observer (docket/core/observer.h): never without one, never
// letting what it throws out, and one end for every begin.
//
// Invariants: a MessageSpan made with an observer calls on_message_begin once and
// on_message_end exactly once (end(), or kAbandoned when it is destroyed first); one
// made without calls nothing and measures nothing. The views of its MessageStart must
// outlive the span.
//
// Thread-safety: a MessageSpan is used by one thread at a time (it may move between
// threads with the batch that owns it); notify() is as thread-safe as the observer.
#ifndef DOCKET_SRC_CORE_OBSERVING_H_
#define DOCKET_SRC_CORE_OBSERVING_H_

#include <chrono>
#include <exception>
#include <string_view>
#include <utility>

#include "docket/core/observer.h"

namespace docket::detail {

// Calls `hook(*observer)` when there is an observer, dropping whatever it throws: an
// observer never changes an outcome.
template <class Hook>
void notify(Observer* observer, Hook&& hook) noexcept {
  if (observer == nullptr) {
    return;
  }
  try {
    std::forward<Hook>(hook)(*observer);
  } catch (...) {  // NOLINT(bugprone-empty-catch): documented in observer.h
  }
}

// The what() of the exception being handled, for MessageEnd::error. Call from a
// handler.
std::string_view current_error_text() noexcept;

class MessageSpan {
 public:
  MessageSpan() noexcept = default;
  // Begins the span when `observer` is not null.
  MessageSpan(Observer* observer, const MessageStart& start) noexcept;
  MessageSpan(MessageSpan&& other) noexcept;
  MessageSpan& operator=(MessageSpan&& other) noexcept;
  MessageSpan(const MessageSpan&) = delete;
  MessageSpan& operator=(const MessageSpan&) = delete;
  ~MessageSpan() { end(MessageOutcome::kAbandoned); }

  // Ends the span with `outcome` (and `error`, for a failure); later calls do nothing.
  void end(MessageOutcome outcome, std::string_view error = {}) noexcept;

  bool open() const noexcept { return observer_ != nullptr; }

 private:
  Observer* observer_ = nullptr;  // null: not begun, or ended
  MessageStart start_{};
  SpanToken token_ = 0;
  std::chrono::steady_clock::time_point began_{};
};

}  // namespace docket::detail

#endif  // DOCKET_SRC_CORE_OBSERVING_H_
