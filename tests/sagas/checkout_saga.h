// The checkout saga the timeout tests drive: "checkout-started" schedules a
// "payment-due" timeout; "payment-received" completes it (dropping the timeout);
// "deadline-extended" schedules the timeout again (replacing the first);
// "checkout-abandoned" cancels it; the timeout itself marks the checkout expired, sends
// "checkout-expired" and completes. Steps read the time from the fixture's clock.
#ifndef DOCKET_TESTS_SAGAS_CHECKOUT_SAGA_H_
#define DOCKET_TESTS_SAGAS_CHECKOUT_SAGA_H_

#include <atomic>
#include <chrono>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "docket/sagas/saga_coordinator.h"
#include "docket/sagas/saga_timeouts.h"

namespace docket::saga_tests {

struct CheckoutStarted {
  static constexpr std::string_view kMessageType = "checkout-started";
  std::string order;
  std::int64_t due_ms = 0;  // after the clock's now
};
struct PaymentReceived {
  static constexpr std::string_view kMessageType = "payment-received";
  std::string order;
};
struct DeadlineExtended {
  static constexpr std::string_view kMessageType = "deadline-extended";
  std::string order;
  std::int64_t due_ms = 0;
};
struct CheckoutAbandoned {
  static constexpr std::string_view kMessageType = "checkout-abandoned";
  std::string order;
};
struct PaymentDue {
  static constexpr std::string_view kMessageType = "payment-due";
  std::string order;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(CheckoutStarted, order, due_ms)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(PaymentReceived, order)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(DeadlineExtended, order, due_ms)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(CheckoutAbandoned, order)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(PaymentDue, order)

struct Checkout {
  std::string order;
  bool paid = false;
  bool expired = false;
  SagaTimeouts timeouts;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Checkout, order, paid, expired, timeouts)

inline constexpr std::string_view kCheckoutSaga = "checkout";
inline constexpr std::string_view kPaymentDue = PaymentDue::kMessageType;

// Sent when a checkout expires.
struct CheckoutExpired {
  static constexpr std::string_view kMessageType = "checkout-expired";
  std::string order;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(CheckoutExpired, order)

struct CheckoutProbe {
  std::atomic<int> timeouts_run = 0;
  Timestamp ran_at{};              // the clock when the timeout's step last ran
  std::atomic<bool> fail = false;  // the next steps throw after they scheduled
};

// Registers the saga into `handlers`; `clock` and `probe` must outlive the dispatcher.
inline void register_checkout(HandlerRegistry& handlers, SagaStore& sagas, const Outbox* outbox,
                              const Clock& clock, CheckoutProbe& probe) {
  using std::chrono::milliseconds;
  const auto order_of = [](const auto& event, const HandlerContext&) { return event.order; };
  const auto fail_if_asked = [&probe] {
    if (probe.fail) {
      throw std::runtime_error("step refused after scheduling");
    }
  };
  // The typed form: every message type names itself, so no step needs a string.
  SagaCoordinator<Checkout> saga(handlers, kCheckoutSaga, sagas, outbox);
  saga.keeps_timeouts_in(&Checkout::timeouts)
      .starts(
          order_of,
          [&clock, fail_if_asked](Checkout& s, const CheckoutStarted& e, SagaStepContext& step) {
            s.order = e.order;
            step.schedule_timeout(PaymentDue{e.order}, clock.now() + milliseconds(e.due_ms));
            fail_if_asked();
          })
      .continues(order_of,
                 [](Checkout& s, const PaymentReceived&, SagaStepContext& step) {
                   s.paid = true;
                   step.complete();
                 })
      .continues(order_of,
                 [&clock](Checkout&, const DeadlineExtended& e, SagaStepContext& step) {
                   step.schedule_timeout(PaymentDue{e.order}, clock.now() + milliseconds(e.due_ms));
                 })
      .continues(order_of, [](Checkout&, const CheckoutAbandoned&,
                              SagaStepContext& step) { step.cancel_timeout(kPaymentDue); })
      .times_out(order_of, [&probe, &clock](Checkout& s, const PaymentDue&, SagaStepContext& step) {
        probe.ran_at = clock.now();
        ++probe.timeouts_run;
        s.expired = true;
        step.send(CheckoutExpired{s.order});
        step.complete();
      });
}

}  // namespace docket::saga_tests

#endif  // DOCKET_TESTS_SAGAS_CHECKOUT_SAGA_H_
