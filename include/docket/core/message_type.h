// The name and codec a C++ message type travels under, declared once on the type, so
// that sending and handling it need no string:
//
//   struct OrderPlaced {
//     static constexpr std::string_view kMessageType = "order-placed";
//     std::string order;
//     int cents = 0;
//   };
//   NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(OrderPlaced, order, cents)
//
//   outbox.send(tx, OrderPlaced{"O-1", 4200});                        // docket/outbox/outbox.h
//   handlers.on<OrderPlaced>([](const OrderPlaced& e, docket::HandlerContext& ctx) { ... });
//
// The codec is the type's member `Codec` when it declares one (a type with encode() and
// decode(), as JsonCodec), and JsonCodec<T> otherwise. A type that cannot carry the
// members (another library's) is named by specialising MessageTraits:
//
//   template <> struct docket::MessageTraits<billing::Invoice> {
//     static constexpr std::string_view kMessageType = "invoice-issued";
//     using Codec = InvoiceCodec;                                      // optional
//   };
//
// The name follows the event type rules (non-empty, valid UTF-8, at most
// kMaxEventTypeBytes), checked where it is used. One name, one C++ type: a registry
// refuses a second type bound to a name already taken, naming both types.
//
// Thread-safety: compile-time traits only.
#ifndef DOCKET_CORE_MESSAGE_TYPE_H_
#define DOCKET_CORE_MESSAGE_TYPE_H_

#include <concepts>
#include <string_view>

#include "docket/core/json_codec.h"

namespace docket {

// Specialise for a type that cannot declare kMessageType itself (see above).
template <class T>
struct MessageTraits {};

// A type that declares its own name.
template <class T>
requires requires {
  { T::kMessageType } -> std::convertible_to<std::string_view>;
}
struct MessageTraits<T> {
  static constexpr std::string_view kMessageType = T::kMessageType;
};

// A type with a message name, by member or by MessageTraits.
template <class T>
concept NamedMessage = requires {
  { MessageTraits<T>::kMessageType } -> std::convertible_to<std::string_view>;
};

// The name T travels under.
template <NamedMessage T>
inline constexpr std::string_view kMessageTypeOf = MessageTraits<T>::kMessageType;

// The codec T is encoded with (see above).
template <class T>
struct MessageCodecOf {
  using type = JsonCodec<T>;
};
template <class T>
requires requires {
  typename MessageTraits<T>::Codec;
}
struct MessageCodecOf<T> {
  using type = typename MessageTraits<T>::Codec;
};
template <class T>
requires(!requires { typename MessageTraits<T>::Codec; }) && requires {
  typename T::Codec;
}
struct MessageCodecOf<T> {
  using type = typename T::Codec;
};
template <class T>
using MessageCodec = typename MessageCodecOf<T>::type;

}  // namespace docket

#endif  // DOCKET_CORE_MESSAGE_TYPE_H_
