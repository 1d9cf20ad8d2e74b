// Options of one inbox consumer, validated when constructed: a bad value fails at
// start-up, not on the first message.
//
// The consumer id is part of the dedup key: keep it stable across deploys (renaming
// it resets dedup history), and give every independent subscriber its own.
//
// The observer, when one is given, hears every dispatch (docket/core/observer.h): a
// span per message and its outcome. Without one nothing is measured.
//
// Thread-safety: immutable after construction.
#ifndef DOCKET_INBOX_INBOX_OPTIONS_H_
#define DOCKET_INBOX_INBOX_OPTIONS_H_

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "docket/core/observer.h"

namespace docket {

// Longest consumer id accepted, in Unicode characters (code points).
inline constexpr std::size_t kMaxConsumerIdChars = 256;

// What is wrong with `consumer_id` as a consumer id, or nullopt when it is fine: it
// must be non-blank, valid UTF-8 and at most kMaxConsumerIdChars characters. Callers
// throw the error type that fits their context (configuration or input).
std::optional<std::string> consumer_id_problem(std::string_view consumer_id);

// When a dispatch learns that its message was processed before.
enum class DedupCheck {
  // Before the handlers run: the dedup row is written first and a duplicate runs no
  // handler. The default.
  kBeforeHandlers,
  // With the commit: the dedup row is written without waiting for its outcome, and a
  // duplicate is recognised when that write fails at the commit (or at a handler's
  // next statement), which discards everything the unit of work wrote. The handlers of
  // a duplicate delivery therefore RUN, their writes never commit: choose it only for
  // handlers whose effects are all writes through the transaction. Where the store can
  // hold the write back (PostgreSQL), a dispatch whose handlers only send
  // (docket::postgres::Transaction::send) is one round trip; on other stores it is
  // kBeforeHandlers. dispatch_batch always checks before the handlers.
  kAtCommit,
};

// What a dispatch does with a message whose event type no handler is registered for.
enum class UnhandledTypes {
  // Throw UnhandledEventTypeError: nothing is committed, the message is not marked
  // processed and the transport redelivers it (a deploy that adds the handler then
  // handles it). The default: a message nobody handles is usually a mistake.
  kRefuse,
  // Mark it processed (its dedup row commits) without running anything, and answer
  // DispatchOutcome::kUnhandled, which the consumer runner counts: for a consumer of a
  // shared stream or topic that handles a few of the types it receives.
  kMarkProcessed,
};

class InboxOptions {
 public:
  // Throws ConfigurationError when consumer_id_problem(consumer_id) reports one.
  explicit InboxOptions(std::string consumer_id, DedupCheck dedup = DedupCheck::kBeforeHandlers,
                        std::shared_ptr<Observer> observer = nullptr,
                        UnhandledTypes unhandled = UnhandledTypes::kRefuse);

  const std::string& consumer_id() const noexcept { return consumer_id_; }
  DedupCheck dedup() const noexcept { return dedup_; }
  UnhandledTypes unhandled() const noexcept { return unhandled_; }
  // Null when none was given.
  const std::shared_ptr<Observer>& observer() const noexcept { return observer_; }

 private:
  std::string consumer_id_;
  DedupCheck dedup_;
  std::shared_ptr<Observer> observer_;
  UnhandledTypes unhandled_;
};

}  // namespace docket

#endif  // DOCKET_INBOX_INBOX_OPTIONS_H_
