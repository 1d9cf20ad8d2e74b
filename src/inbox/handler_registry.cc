#include "docket/handler_registry.h"

#include <exception>

#include "docket/error.h"
#include "docket/inbox_errors.h"
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
                          Decoder decode, Erased handler) {
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
  if (it == bindings_.end()) {
    it = bindings_.emplace(std::string(event_type), Binding{event, codec, std::move(decode), {}})
             .first;
  } else if (it->second.event_type != event || it->second.codec_type != codec) {
    throw ConfigurationError("handler registry: event type '" + std::string(event_type) +
                             "' is already bound to C++ type " + it->second.event_type.name() +
                             " with codec " + it->second.codec_type.name() + ", not " +
                             event.name() + " with codec " + codec.name() +
                             "; every handler of one event type takes the same type and codec");
  }
  it->second.handlers.push_back(std::move(handler));
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
