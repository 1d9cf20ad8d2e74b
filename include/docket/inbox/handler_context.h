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
// after_commit(action) runs `action` once the unit of work committed the message, and
// never when it rolled back (a handler that threw, a savepoint rolled back, a commit
// that failed): for work that must not happen unless the message's effects did, and
// cannot be part of the transaction (a saga's cancelled timeouts are withdrawn from
// the outbox this way). Actions run in the order given, on the dispatching thread,
// once the unit of work is closed (so they may use the store), before dispatch returns; when one
// throws, the rest still run and dispatch then throws the first exception, although the message is
// processed (its redelivery is skipped as a duplicate).
//
// Thread-safety: valid only during the handler call, on the dispatching thread.
#ifndef DOCKET_INBOX_HANDLER_CONTEXT_H_
#define DOCKET_INBOX_HANDLER_CONTEXT_H_

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "docket/core/error.h"
#include "docket/core/handler_transaction.h"
#include "docket/core/tenant.h"
#include "docket/inbox/inbox_envelope.h"

namespace docket {

// What a message's handlers asked to run once its unit of work commits.
using AfterCommitActions = std::vector<std::function<void()>>;

class HandlerContext {
 public:
  // `after_commit` is where after_commit() collects, owned by the dispatcher; null
  // where nothing runs the actions (after_commit() then throws).
  HandlerContext(const Envelope& envelope, std::string_view consumer_id, const TenantId& tenant,
                 HandlerTransaction& transaction,
                 AfterCommitActions* after_commit = nullptr) noexcept
      : envelope_(envelope),
        consumer_id_(consumer_id),
        tenant_(tenant),
        tx_(transaction),
        after_commit_(after_commit) {}

  const Envelope& envelope() const noexcept { return envelope_; }
  std::string_view consumer_id() const noexcept { return consumer_id_; }
  const TenantId& tenant() const noexcept { return tenant_; }

  // The unit of work's transaction as its provider made it, for code written for
  // several providers that picks the wrapper itself (dynamic_cast).
  HandlerTransaction& transaction() const noexcept { return tx_; }

  // See above. Throws ConfigurationError when the context was made without a place for
  // actions (by code other than docket's dispatchers).
  void after_commit(std::function<void()> action) const {
    if (after_commit_ == nullptr) {
      throw ConfigurationError(
          "a handler asked for work after the commit, but this HandlerContext was made "
          "without a place for it; dispatch the message through an InboxDispatcher");
    }
    after_commit_->push_back(std::move(action));
  }

  // The unit of work's transaction as the provider wrapper T (which declares
  // `static constexpr std::string_view kTypeName`).
  template <class T>
  T& transaction() const {
    return transaction_as<T>(tx_, "handler", "inbox");
  }

 private:
  const Envelope& envelope_;
  std::string_view consumer_id_;
  const TenantId& tenant_;
  HandlerTransaction& tx_;
  AfterCommitActions* after_commit_;
};

}  // namespace docket

#endif  // DOCKET_INBOX_HANDLER_CONTEXT_H_
