#include "docket/inbox/handler_registry.h"

#include <exception>

#include "core/readable_type_name.h"
#include "docket/core/error.h"
#include "docket/inbox/inbox_errors.h"
#include "inbox/text_checks.h"

namespace docket {
namespace {

std::string registered_types(const auto& bindings) {
  if (bindings.empty()) {
    return "none";
  }
  std::string names;
  for (const auto& [name, binding] : bindings) {
    names += (names.empty() ? "'" : ", '") + name + "'";
  }
  return names;
}

}  // namespace

void HandlerRegistry::add(std::string_view event_type, std::type_index event, std::type_index codec,
                          Decoder decode, Erased handler,
                          std::optional<TransactionType> transaction) {
  if (auto problem = inbox::text_problem("event type", event_type, kMaxEventTypeBytes,
                                         /*allow_blank=*/false)) {
    throw ConfigurationError("handler registry: " + *problem +
                             "; register under the name envelopes carry");
  }
  if (!handler) {
    throw ConfigurationError("handler registry: empty handler for event type '" +
                             std::string(event_type) + "'; pass a callable");
  }
  auto it = bindings_.find(event_type);
  if (it != bindings_.end() && (it->second.event_type != event || it->second.codec_type != codec)) {
    using core::readable_type_name;
    throw ConfigurationError(
        "handler registry: event type '" + std::string(event_type) + "' is already bound to C++ " +
        "type " + readable_type_name(it->second.event_type) + " with codec " +
        readable_type_name(it->second.codec_type) + ", not " + readable_type_name(event) +
        " with codec " + readable_type_name(codec) +
        "; one message name, one C++ type and codec: give the other type a name of its own");
  }
  // Last of the checks: past it, nothing throws but allocation.
  if (transaction) {
    require_transaction(*transaction,
                        "the handler of event type '" + std::string(event_type) + "'");
  }
  if (it == bindings_.end()) {
    it = bindings_.emplace(std::string(event_type), Binding{event, codec, std::move(decode), {}})
             .first;
  }
  it->second.handlers.push_back(std::move(handler));
}

HandlerRegistry& HandlerRegistry::require_transaction(const TransactionType& type,
                                                      std::string_view required_by) {
  if (!required_) {
    required_.emplace(TransactionRequirement{type, std::string(required_by)});
  } else if (required_->type != type) {
    throw ConfigurationError(
        "handler registry: " + std::string(required_by) + " takes " + std::string(type.name) +
        ", but " + required_->required_by + " takes " + std::string(required_->type.name) +
        "; the handlers of one registry run in the transactions of one inbox store: write them "
        "all against that store's provider (code serving several providers takes "
        "HandlerContext& and calls ctx.transaction<T>())");
  }
  return *this;
}

bool HandlerRegistry::handles(std::string_view event_type) const noexcept {
  return bindings_.find(event_type) != bindings_.end();
}

void HandlerRegistry::run(const Envelope& envelope, HandlerContext& ctx) const {
  const auto it = bindings_.find(envelope.event_type);
  if (it == bindings_.end()) {
    throw UnhandledEventTypeError(
        envelope.event_type, envelope.message_id,
        "no handler is registered for event type '" + envelope.event_type + "' (message '" +
            envelope.message_id + "'); registered: " + registered_types(bindings_) +
            ". The message was not marked processed: register a handler and let it redeliver");
  }
  if (required_ && !required_->type.is_type_of(ctx.transaction())) {
    // An InboxDispatcher compared the types at construction: this is a store whose units
    // of work give another type than it states, or a caller running the registry itself.
    throw ConfigurationError("handler registry: " + required_->required_by + " takes " +
                             std::string(required_->type.name) + ", but message '" +
                             envelope.message_id + "' runs in a transaction of type " +
                             std::string(ctx.transaction().type_name()) +
                             "; no handler ran. Run the handlers in units of work of a store whose "
                             "transaction_type() is " +
                             std::string(required_->type.name));
  }
  it->second.decode(envelope, it->second.handlers, ctx);
}

void HandlerRegistry::throw_decode_failure(const Envelope& envelope, const std::exception& e) {
  throw PayloadDecodeError(
      envelope.event_type, envelope.message_id,
      "payload of message '" + envelope.message_id + "' (event type '" + envelope.event_type +
          "', " + std::to_string(envelope.payload.size()) + " bytes) does not decode: " + e.what() +
          ". The message was not marked processed");
}

}  // namespace docket
