// Handlers for typed events, keyed by event type name.
//
// Each event type name is bound, by its first registration, to one C++ event type and
// one codec; every later registration for that name must use the same two (or it is a
// ConfigurationError at registration). Several handlers per event type run in
// registration order, on the payload decoded once.
//
//   HandlerRegistry handlers;
//   handlers.on<OrderPlaced>("order-placed", [](const OrderPlaced& e, HandlerContext& ctx) {
//     ctx.transaction<docket::sqlite::Transaction>().exec(
//         "INSERT INTO orders(id) VALUES (?1)", {e.id});
//   });
//
// Thread-safety: register from one thread; once handed to an InboxDispatcher the
// registry is read-only and run() may be called from many threads, so a handler may
// run on several threads at once (for different messages) and must allow that.
#ifndef DOCKET_HANDLER_REGISTRY_H_
#define DOCKET_HANDLER_REGISTRY_H_

#include <exception>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <typeindex>
#include <utility>
#include <vector>

#include "docket/handler_context.h"
#include "docket/inbox_envelope.h"
#include "docket/json_codec.h"

namespace docket {

class HandlerRegistry {
 public:
  template <class Event>
  using Handler = std::function<void(const Event&, HandlerContext&)>;

  // Adds `handler` for `event_type`. Throws ConfigurationError when the name is empty,
  // not valid UTF-8 or longer than kMaxEventTypeBytes, when the handler is empty, or
  // when the name is already bound to another C++ type or codec type.
  template <class Event, class Codec = JsonCodec<Event>>
  HandlerRegistry& on(std::string_view event_type, Handler<Event> handler, Codec codec = Codec{}) {
    // Decodes into a local, so a dispatch allocates nothing for the event itself.
    Decoder decode = [codec = std::move(codec)](const Envelope& envelope,
                                                std::span<const Erased> handlers,
                                                HandlerContext& ctx) {
      std::optional<Event> event;
      try {
        event.emplace(codec.decode(envelope.payload));
      } catch (const std::exception& e) {
        throw_decode_failure(envelope, e);
      }
      for (const Erased& run_one : handlers) {
        run_one(&*event, ctx);
      }
    };
    Erased erased;
    if (handler) {
      erased = [handler = std::move(handler)](const void* event, HandlerContext& ctx) {
        handler(*static_cast<const Event*>(event), ctx);
      };
    }
    add(event_type, typeid(Event), typeid(Codec), std::move(decode), std::move(erased));
    return *this;
  }

  bool handles(std::string_view event_type) const noexcept;

  // Decodes the envelope's payload once and runs every handler of its event type in
  // registration order; a handler's exception propagates unchanged. Throws
  // UnhandledEventTypeError when no handler is registered for the type, and
  // PayloadDecodeError (naming the type, the message and the codec's reason) when the
  // payload does not decode.
  void run(const Envelope& envelope, HandlerContext& ctx) const;

 private:
  using Erased = std::function<void(const void*, HandlerContext&)>;
  // Decodes the envelope's payload and runs `handlers` on the event.
  using Decoder = std::function<void(const Envelope&, std::span<const Erased>, HandlerContext&)>;

  struct Binding {
    std::type_index event_type;
    std::type_index codec_type;
    Decoder decode;
    std::vector<Erased> handlers;
  };

  void add(std::string_view event_type, std::type_index event, std::type_index codec,
           Decoder decode, Erased handler);

  // Throws PayloadDecodeError for `envelope`, with the codec's reason.
  [[noreturn]] static void throw_decode_failure(const Envelope& envelope, const std::exception& e);

  std::map<std::string, Binding, std::less<>> bindings_;
};

}  // namespace docket

#endif  // DOCKET_HANDLER_REGISTRY_H_
