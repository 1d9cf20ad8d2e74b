// Handlers for typed events, keyed by event type name.
//
// Each event type name is bound, by its first registration, to one C++ event type and
// one codec; every later registration for that name must use the same two (or it is a
// ConfigurationError at registration). Several handlers per event type run in
// registration order, on the payload decoded once.
//
// A handler that writes takes its provider's transaction as its second parameter; the
// registry deduces and records the type, and an InboxDispatcher over a store whose
// transactions are of another type refuses at construction, naming both:
//
// A message type that declares its name (docket/core/message_type.h) needs no string:
// handlers.on([](const OrderPlaced& e, docket::HandlerContext& ctx) { ... }).
//
//   HandlerRegistry handlers;
//   handlers.on<OrderPlaced>("order-placed", [](const OrderPlaced& e,
//                                               docket::sqlite::Transaction& tx,
//                                               docket::HandlerContext& ctx) {
//     tx.exec("INSERT INTO orders (id, tenant) VALUES (?1, ?2)", {e.id, ctx.tenant().value()});
//   });
//
// A handler of the shape (const Event&, docket::SqlTransaction&, HandlerContext&) writes
// portable SQL (docket/core/sql_transaction.h) and runs on every store whose
// transactions implement it (SQLite, PostgreSQL); a dispatcher over another refuses at
// construction.
//
// A handler of the shape (const Event&, HandlerContext&) is transaction-agnostic: code
// serving several providers picks the wrapper at run time with ctx.transaction<T>()
// (docket/inbox/handler_context.h), and is checked only then.
//
// Invariant: every typed handler of one registry takes the same transaction type (a
// second type is a ConfigurationError at registration, naming both), so one registry
// serves stores of one provider.
// Thread-safety: register from one thread; once handed to an InboxDispatcher the
// registry is read-only and run() may be called from many threads, so a handler may
// run on several threads at once (for different messages) and must allow that.
#ifndef DOCKET_INBOX_HANDLER_REGISTRY_H_
#define DOCKET_INBOX_HANDLER_REGISTRY_H_

#include <exception>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <typeindex>
#include <utility>
#include <vector>

#include "docket/core/json_codec.h"
#include "docket/core/message_type.h"
#include "docket/core/sql_transaction.h"
#include "docket/core/transaction_type.h"
#include "docket/inbox/handler_context.h"
#include "docket/inbox/inbox_envelope.h"

namespace docket {

// The type machinery of HandlerRegistry::on(), which a template needs in its header; not
// part of the API (nothing outside this header names it).
namespace handler_registry_internal {

// The second parameter's type of a callable whose one call operator (or function type)
// is R(Event, Tx&, Context); no `Transaction` member for any other callable.
template <class Signature>
struct TypedHandlerSignature {};
template <class R, class Event, class Tx, class Context>
struct TypedHandlerSignature<std::function<R(Event, Tx&, Context)>> {
  using Transaction = Tx;
};

template <class F>
using HandlerTransactionOf =
    typename TypedHandlerSignature<decltype(std::function{std::declval<F&>()})>::Transaction;

// F is a handler (const Event&, Tx&, HandlerContext&) with Tx a provider's transaction.
template <class F, class Event>
concept TransactionTakingHandler = requires {
  typename HandlerTransactionOf<F>;
}
&&ProviderTransaction<std::remove_const_t<HandlerTransactionOf<F>>>&&
    std::is_invocable_v<F&, const Event&, HandlerTransactionOf<F>&, HandlerContext&>;

// The event a handler (const Event&, ...) takes: its first parameter, decayed; no `type`
// for a callable with a template or overloaded call operator.
template <class Signature>
struct FirstParameter {};
template <class R, class First, class... Rest>
struct FirstParameter<std::function<R(First, Rest...)>> {
  using type = std::remove_cvref_t<First>;
};
template <class F>
using EventOf = typename FirstParameter<decltype(std::function{std::declval<F&>()})>::type;

}  // namespace handler_registry_internal

// The transaction type a registry's handlers are written against, and the registration
// that first named it (for errors): "the handler of event type 'order-placed'".
struct TransactionRequirement {
  TransactionType type;
  std::string required_by;
};

class HandlerRegistry {
 public:
  // A transaction-agnostic handler.
  template <class Event>
  using Handler = std::function<void(const Event&, HandlerContext&)>;
  // A handler written against the provider transaction Tx.
  template <class Event, class Tx>
  using TypedHandler = std::function<void(const Event&, Tx&, HandlerContext&)>;

  // Adds `handler` for `event_type`: a callable (const Event&, HandlerContext&), or
  // (const Event&, Tx&, HandlerContext&) where Tx is a provider's transaction
  // (ProviderTransaction, docket/core/transaction_type.h), deduced from the callable's one
  // call operator. Throws ConfigurationError when the name is empty, not valid UTF-8 or
  // longer than kMaxEventTypeBytes, when the handler is empty, when the name is already
  // bound to another C++ type or codec type, or when an earlier handler takes another
  // transaction type; nothing is registered then.
  template <class Event, class Codec = JsonCodec<Event>, class F>
  HandlerRegistry& on(std::string_view event_type, F handler, Codec codec = Codec{}) {
    Decoder decode = make_decoder<Event>(std::move(codec));
    if constexpr (std::is_constructible_v<Handler<Event>, F>) {
      Handler<Event> agnostic(std::move(handler));
      Erased erased;
      if (agnostic) {
        erased = [agnostic = std::move(agnostic)](const void* event, HandlerContext& ctx) {
          agnostic(*static_cast<const Event*>(event), ctx);
        };
      }
      add(event_type, typeid(Event), typeid(Codec), std::move(decode), std::move(erased),
          std::nullopt);
    } else if constexpr (std::is_invocable_v<F&, const Event&, SqlTransaction&, HandlerContext&>) {
      std::function<void(const Event&, SqlTransaction&, HandlerContext&)> portable(
          std::move(handler));
      Erased erased;
      if (portable) {
        erased = [portable = std::move(portable)](const void* event, HandlerContext& ctx) {
          portable(*static_cast<const Event*>(event), ctx.transaction<SqlTransaction>(), ctx);
        };
      }
      add(event_type, typeid(Event), typeid(Codec), std::move(decode), std::move(erased),
          std::nullopt);
      require_sql("the handler of event type '" + std::string(event_type) + "'");
    } else {
      static_assert(handler_registry_internal::TransactionTakingHandler<F, Event>,
                    "a handler is callable as (const Event&, HandlerContext&), or as "
                    "(const Event&, Tx&, HandlerContext&) with one non-template call operator "
                    "and Tx a provider's transaction (docket::sqlite::Transaction, ...)");
      using Tx = handler_registry_internal::HandlerTransactionOf<F>;
      TypedHandler<Event, Tx> typed(std::move(handler));
      Erased erased;
      if (typed) {
        erased = [typed = std::move(typed)](const void* event, HandlerContext& ctx) {
          // Exact: run() checked, before any handler, that ctx's transaction is of the
          // registry's required type, which is Tx (one type per registry), and an
          // InboxDispatcher refused at construction a store of another type.
          typed(*static_cast<const Event*>(event), static_cast<Tx&>(ctx.transaction()), ctx);
        };
      }
      add(event_type, typeid(Event), typeid(Codec), std::move(decode), std::move(erased),
          TransactionType::of<std::remove_const_t<Tx>>());
    }
    return *this;
  }

  // on() under the name and codec Event declares (docket/core/message_type.h):
  //   handlers.on<OrderPlaced>([](const OrderPlaced& e, docket::HandlerContext& ctx) {...});
  template <NamedMessage Event, class F>
  HandlerRegistry& on(F handler) {
    return on<Event, MessageCodec<Event>>(kMessageTypeOf<Event>, std::move(handler));
  }

  // The same with Event deduced from the handler's first parameter, which must be a
  // NamedMessage: handlers.on([](const OrderPlaced& e, docket::HandlerContext& ctx) {...}).
  template <class F>
  requires NamedMessage<handler_registry_internal::EventOf<F>> HandlerRegistry& on(F handler) {
    return on<handler_registry_internal::EventOf<F>>(std::move(handler));
  }

  // A message type that names no message type, by either spelling above: refused at
  // compile time, saying what to add (a string name is the overload with event_type).
  template <class F>
  requires(!NamedMessage<handler_registry_internal::EventOf<F>>) HandlerRegistry& on(F) {
    static_assert(NamedMessage<handler_registry_internal::EventOf<F>>,
                  "docket: handlers.on(handler): the message type names no message type; give it "
                  "`static constexpr std::string_view kMessageType = \"...\";`, specialise "
                  "docket::MessageTraits for it (docket/core/message_type.h), or pass the "
                  "name: handlers.on<Event>(\"name\", handler)");
    return *this;
  }
  template <class Event, class F>
  requires(!NamedMessage<Event>) HandlerRegistry& on(F) {
    static_assert(NamedMessage<Event>,
                  "docket: handlers.on(handler): the message type names no message type; give it "
                  "`static constexpr std::string_view kMessageType = \"...\";`, specialise "
                  "docket::MessageTraits for it (docket/core/message_type.h), or pass the "
                  "name: handlers.on<Event>(\"name\", handler)");
    return *this;
  }

  // Records that handlers registered by `required_by` (e.g. "saga 'fulfilment'") write
  // through `type`, as a typed handler does, for components that register
  // transaction-agnostic callables bound to one provider's store. Throws
  // ConfigurationError, naming both, when another type is already required.
  HandlerRegistry& require_transaction(const TransactionType& type, std::string_view required_by);

  // The first registration whose handler takes portable SQL (SqlTransaction&), for an
  // InboxDispatcher to refuse a store whose transactions do not implement it; nullopt
  // when none does.
  const std::optional<std::string>& requires_sql() const noexcept { return sql_required_by_; }

  // The transaction type the handlers are written against; nullopt when every handler
  // is transaction-agnostic (or none is registered).
  const std::optional<TransactionRequirement>& required_transaction() const noexcept {
    return required_;
  }

  bool handles(std::string_view event_type) const noexcept;

  // Decodes the envelope's payload once and runs every handler of its event type in
  // registration order; a handler's exception propagates unchanged. Throws
  // UnhandledEventTypeError when no handler is registered for the type,
  // ConfigurationError when the registry requires a transaction type and ctx's
  // transaction is not exactly of it (no handler runs then), and PayloadDecodeError
  // (naming the type, the message and the codec's reason) when the payload does not
  // decode.
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

  template <class Event, class Codec>
  static Decoder make_decoder(Codec codec) {
    // Decodes into a local, so a dispatch allocates nothing for the event itself.
    return [codec = std::move(codec)](const Envelope& envelope, std::span<const Erased> handlers,
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
  }

  void add(std::string_view event_type, std::type_index event, std::type_index codec,
           Decoder decode, Erased handler, std::optional<TransactionType> transaction);

  // Throws PayloadDecodeError for `envelope`, with the codec's reason.
  [[noreturn]] static void throw_decode_failure(const Envelope& envelope, const std::exception& e);

  std::map<std::string, Binding, std::less<>> bindings_;
  void require_sql(std::string required_by) {
    if (!sql_required_by_) {
      sql_required_by_ = std::move(required_by);
    }
  }

  std::optional<TransactionRequirement> required_;
  std::optional<std::string> sql_required_by_;
};

}  // namespace docket

#endif  // DOCKET_INBOX_HANDLER_REGISTRY_H_
