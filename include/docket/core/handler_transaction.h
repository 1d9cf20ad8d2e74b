// The base of every provider's handler-facing transaction wrapper
// (docket::sqlite::Transaction, docket::memory::Transaction, ...).
//
// A handler writes through its provider's wrapper so that its writes join the unit
// of work that also records the dedup row. The wrappers offer statements and reads,
// never commit or rollback: the dispatcher commits once, after every handler ran.
//
// Thread-safety: a transaction belongs to the one thread running the dispatch.
#ifndef DOCKET_CORE_HANDLER_TRANSACTION_H_
#define DOCKET_CORE_HANDLER_TRANSACTION_H_

#include <string_view>

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

}  // namespace docket

#endif  // DOCKET_CORE_HANDLER_TRANSACTION_H_
