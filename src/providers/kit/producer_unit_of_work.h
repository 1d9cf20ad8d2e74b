// A producer's unit of work on a document provider whose unit of work is one buffered
// commit (DynamoDB's TransactWriteItems, Firestore's commit): the producer's writes and
// the outbox messages it stages, committed at once. It records no inbox message: that
// is the inbox store's unit, whose handlers stage through the same kind of transaction.
//
// Internal to docket. Thread-safety: as UnitOfWork, one thread at a time.
#ifndef DOCKET_PROVIDERS_KIT_PRODUCER_UNIT_OF_WORK_H_
#define DOCKET_PROVIDERS_KIT_PRODUCER_UNIT_OF_WORK_H_

#include <string>
#include <string_view>

#include "docket/core/error.h"
#include "docket/inbox/inbox_store.h"

namespace docket::kit {

// Unit: the provider's unit of work, constructible from its Context, offering
// transaction(), begin_savepoint(), release_savepoint(), rollback_savepoint() and
// commit().
template <class Unit>
class ProducerUnitOfWork final : public UnitOfWork {
 public:
  // `provider`: the provider's display name ("DynamoDB"); `transaction_type`: the
  // handler transaction its inbox store's handlers stage messages through.
  template <class Context>
  ProducerUnitOfWork(const Context& context, std::string_view provider,
                     std::string_view transaction_type)
      : unit_(context), provider_(provider), transaction_type_(transaction_type) {}

  bool try_record(const InboxRecord&) override { throw refusal(); }
  bool is_recorded(const DedupKey&) override { throw refusal(); }
  HandlerTransaction& handler_transaction() noexcept override { return unit_.transaction(); }
  void begin_savepoint() override { unit_.begin_savepoint(); }
  void release_savepoint() override { unit_.release_savepoint(); }
  void rollback_savepoint() override { unit_.rollback_savepoint(); }
  void commit() override { unit_.commit(); }

 private:
  ConfigurationError refusal() const {
    const std::string provider(provider_);
    return ConfigurationError(provider +
                              " outbox: a unit of work of the outbox store records no inbox "
                              "message; dispatch through the " +
                              provider +
                              " inbox store on the same URL, whose handlers stage messages "
                              "through their " +
                              std::string(transaction_type_));
  }

  Unit unit_;
  std::string_view provider_;
  std::string_view transaction_type_;
};

}  // namespace docket::kit

#endif  // DOCKET_PROVIDERS_KIT_PRODUCER_UNIT_OF_WORK_H_
