// The order-fulfilment saga the coordinator tests drive: started by "order-placed",
// continued by "payment-captured" and "order-shipped" (both retried while the saga does
// not exist) and "order-cancelled" (ignored without a saga); it completes once paid
// and shipped, or when cancelled. Steps send follow-ups through the outbox:
// "capture-payment" when placed, "ship-order" when paid.
//
// Probe counts the steps that ran (also those rolled back) and can make the next steps
// fail after they changed the state and sent.
#ifndef DOCKET_TESTS_SAGAS_FULFILMENT_SAGA_H_
#define DOCKET_TESTS_SAGAS_FULFILMENT_SAGA_H_

#include <atomic>
#include <functional>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "docket/sagas/saga_coordinator.h"

namespace docket::saga_tests {

struct OrderPlaced {
  std::string order;
  int cents = 0;
};
struct PaymentCaptured {
  std::string order;
};
struct OrderShipped {
  std::string order;
};
struct OrderCancelled {
  std::string order;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(OrderPlaced, order, cents)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(PaymentCaptured, order)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(OrderShipped, order)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(OrderCancelled, order)

struct Fulfilment {
  std::string order;
  int cents = 0;
  bool paid = false;
  bool shipped = false;
  bool cancelled = false;
  std::vector<std::string> history;  // the steps applied, in order

  friend bool operator==(const Fulfilment&, const Fulfilment&) = default;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Fulfilment, order, cents, paid, shipped, cancelled, history)

inline constexpr std::string_view kSagaType = "order-fulfilment";

struct Probe {
  std::atomic<int> steps = 0;
  std::atomic<bool> fail = false;  // the next steps throw after changing state and sending
  // Runs inside every step after it changed the state (before it may fail), with the
  // loaded version: for tests that coordinate concurrent steps.
  std::function<void(const SagaStepContext&)> inside_step;

  void ran(const SagaStepContext& step) {
    ++steps;
    if (inside_step) {
      inside_step(step);
    }
    if (fail) {
      throw std::runtime_error("step refused for " + step.saga().saga_id());
    }
  }
};

inline std::string by_order(const auto& event, const HandlerContext&) {
  return event.order;
}

inline void finish_when_done(const Fulfilment& s, SagaStepContext& step) {
  if ((s.paid && s.shipped) || s.cancelled) {
    step.complete();
  }
}

// Registers the saga into `handlers`; `probe` must outlive the dispatcher.
inline void register_fulfilment(HandlerRegistry& handlers, SagaStore& sagas, const Outbox* outbox,
                                Probe& probe) {
  SagaCoordinator<Fulfilment> saga(handlers, kSagaType, sagas, outbox);
  saga.starts<OrderPlaced>("order-placed", by_order<OrderPlaced>,
                           [&probe](Fulfilment& s, const OrderPlaced& e, SagaStepContext& step) {
                             s.order = e.order;
                             s.cents = e.cents;
                             s.history.push_back(step.is_new() ? "placed" : "placed-again");
                             step.send("capture-payment", e);
                             probe.ran(step);
                           })
      .continues<PaymentCaptured>(
          "payment-captured", by_order<PaymentCaptured>,
          [&probe](Fulfilment& s, const PaymentCaptured&, SagaStepContext& step) {
            s.paid = true;
            s.history.push_back("paid");
            step.send("ship-order", OrderShipped{s.order});
            finish_when_done(s, step);
            probe.ran(step);
          })
      .continues<OrderShipped>("order-shipped", by_order<OrderShipped>,
                               [&probe](Fulfilment& s, const OrderShipped&, SagaStepContext& step) {
                                 s.shipped = true;
                                 s.history.push_back("shipped");
                                 finish_when_done(s, step);
                                 probe.ran(step);
                               })
      .continues<OrderCancelled>(
          "order-cancelled", by_order<OrderCancelled>,
          [&probe](Fulfilment& s, const OrderCancelled&, SagaStepContext& step) {
            s.cancelled = true;
            s.history.push_back("cancelled");
            finish_when_done(s, step);
            probe.ran(step);
          },
          IfSagaMissing::kIgnore);
}

}  // namespace docket::saga_tests

#endif  // DOCKET_TESTS_SAGAS_FULFILMENT_SAGA_H_
