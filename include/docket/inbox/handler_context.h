// What a handler receives beside its decoded event: the envelope, the consumer and
// tenant, and the unit of work's transaction in its provider's native form.
//
// A handler written for one provider takes that provider's transaction as a parameter
// (docket/inbox/handler_registry.h), and a dispatcher over a store of another provider refuses
// it at construction. Code serving several providers takes only the context and picks
// the wrapper at run time:
//
//   if (auto* tx = dynamic_cast<docket::sqlite::Transaction*>(&ctx.transaction())) ...
//   auto& tx = ctx.transaction<docket::sqlite::Transaction>();   // or insists on one
//
// transaction<T>() is a checked down-cast: when the store is another provider it
// throws ConfigurationError naming the type asked for and the store's type, at the
// first message that asks (a typed handler is refused at start-up instead).
//
// Thread-safety: valid only during the handler call, on the dispatching thread.
#ifndef DOCKET_INBOX_HANDLER_CONTEXT_H_
#define DOCKET_INBOX_HANDLER_CONTEXT_H_

#include <string>
#include <string_view>

#include "docket/core/error.h"
#include "docket/core/handler_transaction.h"
#include "docket/core/tenant.h"
#include "docket/inbox/inbox_envelope.h"

namespace docket {

class HandlerContext {
 public:
  HandlerContext(const Envelope& envelope, std::string_view consumer_id, const TenantId& tenant,
                 HandlerTransaction& transaction) noexcept
      : envelope_(envelope), consumer_id_(consumer_id), tenant_(tenant), tx_(transaction) {}

  const Envelope& envelope() const noexcept { return envelope_; }
  std::string_view consumer_id() const noexcept { return consumer_id_; }
  const TenantId& tenant() const noexcept { return tenant_; }

  // The unit of work's transaction as its provider made it, for code written for
  // several providers that picks the wrapper itself (dynamic_cast).
  HandlerTransaction& transaction() const noexcept { return tx_; }

  // The unit of work's transaction as the provider wrapper T (which declares
  // `static constexpr std::string_view kTypeName`).
  template <class T>
  T& transaction() const {
    if (auto* typed = dynamic_cast<T*>(&tx_)) {
      return *typed;
    }
    throw ConfigurationError("handler asked for the transaction as " + std::string(T::kTypeName) +
                             " but this inbox store provides " + std::string(tx_.type_name()) +
                             "; write the handler against the provider the store was opened with");
  }

 private:
  const Envelope& envelope_;
  std::string_view consumer_id_;
  const TenantId& tenant_;
  HandlerTransaction& tx_;
};

}  // namespace docket

#endif  // DOCKET_INBOX_HANDLER_CONTEXT_H_
