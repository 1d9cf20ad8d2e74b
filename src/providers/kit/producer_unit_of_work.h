// A producer's unit of work on a document provider whose unit of work is one buffered
// commit (DynamoDB's TransactWriteItems, Firestore's commit): the producer's writes and
// the outbox messages it stages, committed at once. It records no inbox message, so it
// is a plain UnitOfWork: recording is the inbox store's unit (spi::InboxUnit), whose
// handlers stage through the same kind of transaction.
//
// Internal to docket. Thread-safety: as UnitOfWork, one thread at a time.
#ifndef DOCKET_PROVIDERS_KIT_PRODUCER_UNIT_OF_WORK_H_
#define DOCKET_PROVIDERS_KIT_PRODUCER_UNIT_OF_WORK_H_

#include "docket/core/handler_transaction.h"
#include "docket/core/unit_of_work.h"

namespace docket::kit {

// Unit: the provider's unit of work, constructible from its Context, offering
// transaction() and commit().
template <class Unit>
class ProducerUnitOfWork final : public UnitOfWork {
 public:
  template <class Context>
  explicit ProducerUnitOfWork(const Context& context) : unit_(context) {}

  HandlerTransaction& handler_transaction() noexcept override { return unit_.transaction(); }
  void commit() override { unit_.commit(); }

 private:
  Unit unit_;
};

}  // namespace docket::kit

#endif  // DOCKET_PROVIDERS_KIT_PRODUCER_UNIT_OF_WORK_H_
