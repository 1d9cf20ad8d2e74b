// Which provider transaction wrapper a store hands to handlers and producers, and which
// one a handler is written against, as a value that can be compared before any message
// flows.
//
//   TransactionType::of<docket::sqlite::Transaction>()   // what a handler takes
//   inbox_store.transaction_type()                       // what a store gives
//
// A handler registered with its provider's transaction as a parameter
// (docket/inbox/handler_registry.h) names its TransactionType; an InboxStore states the one its
// units of work give; an InboxDispatcher compares the two once, at construction, so a
// handler written for another provider is refused at start-up, not at the first message.
//
// Invariant: two values are equal exactly when they name the same C++ type; `name` is
// the type's kTypeName (static storage) and serves error messages only.
// Thread-safety: a plain value type.
#ifndef DOCKET_CORE_TRANSACTION_TYPE_H_
#define DOCKET_CORE_TRANSACTION_TYPE_H_

#include <concepts>
#include <string_view>
#include <type_traits>
#include <typeindex>
#include <typeinfo>

#include "docket/core/handler_transaction.h"
#include "docket/core/sql_transaction.h"

namespace docket {

// A provider's handler-facing wrapper: derived from HandlerTransaction (not virtually,
// so that a verified HandlerTransaction& converts to it with static_cast), and naming
// itself with `static constexpr std::string_view kTypeName`.
template <class T>
concept ProviderTransaction =
    std::derived_from<T, HandlerTransaction> && !std::same_as<T, HandlerTransaction> &&
    requires(HandlerTransaction & base) {
  { T::kTypeName } -> std::convertible_to<std::string_view>;
  static_cast<T&>(base);
};

struct TransactionType {
  std::type_index type;
  std::string_view name;  // e.g. "docket::sqlite::Transaction"
  // Whether the type implements portable SQL (docket/core/sql_transaction.h), so that a
  // handler written against SqlTransaction runs on it.
  bool speaks_sql = false;

  template <ProviderTransaction T>
  static TransactionType of() noexcept {
    return TransactionType{.type = typeid(T),
                           .name = T::kTypeName,
                           .speaks_sql = std::derived_from<T, SqlTransaction>};
  }

  // Whether `tx` is exactly of this type (one type_info comparison, no hierarchy walk).
  bool is_type_of(const HandlerTransaction& tx) const noexcept { return typeid(tx) == type; }

  friend bool operator==(const TransactionType& a, const TransactionType& b) noexcept {
    return a.type == b.type;
  }
};

}  // namespace docket

#endif  // DOCKET_CORE_TRANSACTION_TYPE_H_
