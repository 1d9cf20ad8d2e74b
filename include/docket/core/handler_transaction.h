// The base of every provider's handler-facing transaction wrapper
// (docket::sqlite::Transaction, docket::memory::Transaction, ...).
//
// A handler writes through its provider's wrapper so that its writes join the unit
// of work that also records the dedup row. The wrappers offer statements and reads,
// never commit or rollback: the dispatcher commits once, after every handler ran.
//
// transaction_as<T>(tx, who) is the checked down-cast to a wrapper that a handler
// (HandlerContext::transaction<T>) and a producer (UnitOfWork::transaction<T>) use:
// another provider's transaction is a ConfigurationError naming both types.
//
// Thread-safety: a transaction belongs to the one thread running the dispatch.
#ifndef DOCKET_CORE_HANDLER_TRANSACTION_H_
#define DOCKET_CORE_HANDLER_TRANSACTION_H_

#include <concepts>
#include <string_view>
#include <type_traits>

namespace docket {

class HandlerTransaction {
 public:
  virtual ~HandlerTransaction() = default;

  // The wrapper's C++ type name, e.g. "docket::sqlite::Transaction", for errors.
  virtual std::string_view type_name() const noexcept = 0;

 protected:
  HandlerTransaction() = default;
  HandlerTransaction(const HandlerTransaction&) = default;
  HandlerTransaction& operator=(const HandlerTransaction&) = default;
};

// Throws the ConfigurationError of transaction_as: `who` ("handler", "producer") asked
// for `wanted` where `tx` is of another type; `store` names the kind of store that
// made it ("inbox", "outbox").
[[noreturn]] void throw_wrong_transaction(std::string_view who, std::string_view wanted,
                                          const HandlerTransaction& tx, std::string_view store);

// `tx` as the provider wrapper T (which declares `static constexpr std::string_view
// kTypeName`), or the ConfigurationError above.
// A type transaction_as can give: a polymorphic class naming itself by kTypeName (a
// provider's transaction, or an interface one implements, as SqlTransaction).
template <class T>
concept TransactionView = std::is_polymorphic_v<T> && requires {
  { T::kTypeName } -> std::convertible_to<std::string_view>;
};

template <class T>
T& transaction_as(HandlerTransaction& tx, std::string_view who, std::string_view store) {
  if constexpr (!TransactionView<T>) {
    static_assert(TransactionView<T>,
                  "docket: transaction<T>() takes a transaction type docket knows: a "
                  "provider's transaction (docket::sqlite::Transaction, "
                  "docket::postgres::Transaction, ...) or docket::SqlTransaction");
  } else {
    if (auto* typed = dynamic_cast<T*>(&tx)) {
      return *typed;
    }
    throw_wrong_transaction(who, T::kTypeName, tx, store);
  }
}

}  // namespace docket

#endif  // DOCKET_CORE_HANDLER_TRANSACTION_H_
