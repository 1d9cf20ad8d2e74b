#include "docket/core/message_context.h"

#include <utility>

namespace docket {
namespace {

thread_local MessageContextScope* innermost = nullptr;

}  // namespace

MessageContextScope::MessageContextScope(MessageContext context)
    : previous_(innermost), context_(std::move(context)) {
  if (!context_.correlation_id && previous_ != nullptr) {
    context_.correlation_id = previous_->context_.correlation_id;
  }
  innermost = this;
}

MessageContextScope::~MessageContextScope() {
  innermost = previous_;
}

const MessageContext* MessageContextScope::current() noexcept {
  return innermost != nullptr ? &innermost->context_ : nullptr;
}

}  // namespace docket
