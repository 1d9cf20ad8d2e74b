// The ambient message context: which inbound message the calling thread is handling.
//
// The dispatcher opens a MessageContextScope around each message's handlers and
// commit, so handler code (and anything it calls, e.g. an outbox staging a follow-up
// message) can read the current message id as the causation of what it produces, the
// correlation id, and the producer's trace context. The previous context is restored
// when the scope ends, also when a handler throws.
//
// Thread-safety: thread-local. A scope must be destroyed on the thread that created
// it (it is neither copyable nor movable); each thread has its own stack of scopes.
#ifndef DOCKET_CORE_MESSAGE_CONTEXT_H_
#define DOCKET_CORE_MESSAGE_CONTEXT_H_

#include <optional>
#include <string>

#include "docket/core/trace_context.h"

namespace docket {

struct MessageContext {
  std::string message_id{};
  std::string consumer_id{};
  std::optional<std::string> correlation_id{};
  std::optional<std::string> causation_id{};
  std::optional<TraceContext> trace{};  // nullopt when absent or malformed
};

class MessageContextScope {
 public:
  // Makes `context` current. When it has no correlation id, the enclosing context's
  // correlation id (an application-supplied one) stays visible.
  explicit MessageContextScope(MessageContext context);
  ~MessageContextScope();

  MessageContextScope(const MessageContextScope&) = delete;
  MessageContextScope& operator=(const MessageContextScope&) = delete;

  // The innermost active context on this thread, or nullptr. Valid until that scope
  // ends.
  static const MessageContext* current() noexcept;

 private:
  MessageContextScope* previous_;
  MessageContext context_;
};

}  // namespace docket

#endif  // DOCKET_CORE_MESSAGE_CONTEXT_H_
