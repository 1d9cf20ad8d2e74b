// What the coordinator refuses: bad registrations at registration time, stores of two
// providers at construction (its own, or the dispatcher's), and at run time
// an unusable correlation, a stored state its codec cannot read and a send without an
// outbox, each leaving the message unprocessed and nothing committed.
#include <gtest/gtest.h>

#include <string>

#include "docket/core/error.h"
#include "docket/memory/saga_store.h"
#include "docket/sagas/saga_errors.h"
#include "docket/stores/open_store.h"
#include "saga_fixture.h"

namespace docket::saga_tests {
namespace {

void expect_configuration_error(const std::function<void()>& call, std::string_view mention) {
  try {
    call();
    ADD_FAILURE() << "expected ConfigurationError mentioning " << mention;
  } catch (const ConfigurationError& e) {
    EXPECT_NE(std::string(e.what()).find(mention), std::string::npos) << e.what();
  }
}

auto no_step = [](Fulfilment&, const OrderPlaced&, SagaStepContext&) {};

TEST(CoordinatorRegistration, RefusesWhatCouldNeverRun) {
  auto sagas = memory::open_saga_store();
  HandlerRegistry handlers;
  expect_configuration_error([&] { SagaCoordinator<Fulfilment>(handlers, "", *sagas); },
                             "saga type");

  SagaCoordinator<Fulfilment> saga(handlers, "order-fulfilment", *sagas);
  saga.starts<OrderPlaced>("order-placed", by_order<OrderPlaced>, no_step);
  expect_configuration_error(
      [&] { saga.continues<OrderPlaced>("order-placed", by_order<OrderPlaced>, no_step); },
      "'order-placed' is already registered");
  expect_configuration_error([&] { saga.starts<OrderPlaced>("order-placed-v2", nullptr, no_step); },
                             "empty correlation");
  expect_configuration_error(
      [&] { saga.starts<OrderPlaced>("order-placed-v2", by_order<OrderPlaced>, nullptr); },
      "empty step");

  SagaCoordinator<Fulfilment> other(handlers, "loyalty", *sagas);
  expect_configuration_error(
      [&] {
        other.continues<PaymentCaptured>(
            "order-placed", by_order<PaymentCaptured>,
            [](Fulfilment&, const PaymentCaptured&, SagaStepContext&) {});
      },
      "already bound");
  EXPECT_NO_THROW(other.starts<OrderPlaced>("order-placed", by_order<OrderPlaced>, no_step))
      << "two sagas may start on one message type";
}

struct Reminders {
  int sent = 0;
  SagaTimeouts timeouts;
};
// A codec that writes the count and forgets the timeouts.
struct ForgetfulCodec {
  Reminders decode(std::string_view payload) const {
    return Reminders{.sent = std::stoi(std::string(payload)), .timeouts = {}};
  }
  std::string encode(const Reminders& state) const { return std::to_string(state.sent); }
};

TEST(CoordinatorRegistration, RefusesTimeoutsWithNowhereToKeepThem) {
  auto sagas = memory::open_saga_store();
  HandlerRegistry handlers;
  SagaCoordinator<Reminders, ForgetfulCodec> without_outbox(handlers, "reminders", *sagas);
  expect_configuration_error([&] { without_outbox.keeps_timeouts_in(&Reminders::timeouts); },
                             "needs an outbox");
  auto outbox_store = open_outbox_store("memory:");
  const Outbox outbox(*outbox_store);
  HandlerRegistry more;
  SagaCoordinator<Reminders, ForgetfulCodec> saga(more, "reminders", *sagas, &outbox);
  const auto due = [](Reminders&, const OrderPlaced&, SagaStepContext&) {};
  expect_configuration_error(
      [&] { saga.times_out<OrderPlaced>("reminder-due", by_order<OrderPlaced>, due); },
      "before keeps_timeouts_in");
  expect_configuration_error([&] { saga.keeps_timeouts_in(nullptr); }, "needs a member");
  saga.keeps_timeouts_in(&Reminders::timeouts);
  expect_configuration_error([&] { saga.keeps_timeouts_in(&Reminders::timeouts); },
                             "was called already");
}

template <typename Database>
class CoordinatorRefusal : public SagaFixture<Database> {
 protected:
  // A dispatcher whose only saga ("audit") starts on "order-placed" with `correlate`
  // and, when `outbox` is set, stages through it.
  InboxDispatcher audit(SagaCoordinator<Fulfilment>::Correlate<OrderPlaced> correlate,
                        const Outbox* outbox) {
    HandlerRegistry handlers;
    SagaCoordinator<Fulfilment>(handlers, "audit", *this->sagas_, outbox)
        .template starts<OrderPlaced>(
            "order-placed", std::move(correlate),
            [](Fulfilment& s, const OrderPlaced& e, SagaStepContext& step) {
              s.history.push_back("audited");
              step.send("audited", e);
            });
    return InboxDispatcher(*this->inbox_store_, InboxOptions("fulfilment"), std::move(handlers));
  }
};
TYPED_TEST_SUITE(CoordinatorRefusal, JoinDatabases, JoinCaseNames);

TYPED_TEST(CoordinatorRefusal, AnUnusableCorrelationNamesTheMessage) {
  const auto inbox = this->audit(
      [](const OrderPlaced&, const HandlerContext&) { return std::string(); }, &this->outbox_);
  try {
    inbox.dispatch(placed("m-1"));
    ADD_FAILURE() << "expected InvalidInputError";
  } catch (const InvalidInputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("message 'm-1' (event type 'order-placed')"), std::string::npos) << what;
    EXPECT_NE(what.find("saga id"), std::string::npos) << what;
  }
  EXPECT_FALSE(this->recorded("m-1"));
  EXPECT_TRUE(this->sent().empty());
}

TYPED_TEST(CoordinatorRefusal, AStoredStateTheCodecCannotReadIsASagaStateError) {
  const SagaId audit(this->tenant_, "audit", "O-1");
  this->sagas_->save(audit, kNewSaga, "{not json").value_or_throw();
  const auto inbox = this->audit(by_order<OrderPlaced>, &this->outbox_);
  try {
    inbox.dispatch(placed("m-1"));
    ADD_FAILURE() << "expected SagaStateError";
  } catch (const SagaStateError& e) {
    EXPECT_EQ(e.saga(), audit);
    EXPECT_NE(std::string(e.what()).find("state codec"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(this->recorded("m-1"));
  EXPECT_EQ(this->sagas_->load(audit)->state, "{not json");
  EXPECT_TRUE(this->sent().empty());
}

TYPED_TEST(CoordinatorRefusal, SendingWithoutAnOutboxIsAConfigurationError) {
  const auto inbox = this->audit(by_order<OrderPlaced>, nullptr);
  expect_configuration_error([&] { inbox.dispatch(placed("m-1")); }, "has no outbox");
  EXPECT_FALSE(this->recorded("m-1"));
  EXPECT_FALSE(this->sagas_->load(SagaId(this->tenant_, "audit", "O-1")).has_value());
}

TYPED_TEST(CoordinatorRefusal, AnInboxStoreOfAnotherProviderIsRefusedBeforeAnyMessage) {
  using Foreign = typename TypeParam::Foreign;
  auto foreign_inbox = this->db_.foreign.open_inbox(this->clock_);
  HandlerRegistry handlers;
  SagaCoordinator<Fulfilment>(handlers, "audit", *this->sagas_, &this->outbox_)
      .template starts<OrderPlaced>("order-placed", by_order<OrderPlaced>, no_step);
  ASSERT_TRUE(handlers.required_transaction());
  EXPECT_EQ(handlers.required_transaction()->type, this->sagas_->transaction_type());
  try {
    const InboxDispatcher inbox(*foreign_inbox, InboxOptions("fulfilment"), std::move(handlers));
    ADD_FAILURE() << "a dispatcher over another provider's inbox store was constructed";
  } catch (const ConfigurationError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("saga 'audit' (its " + std::string(TypeParam::kProvider) +
                        " saga store) takes " + std::string(TypeParam::Transaction::kTypeName)),
              std::string::npos)
        << what;
    EXPECT_NE(what.find("the " + std::string(Foreign::kProvider) + " inbox store gives handlers " +
                        std::string(Foreign::Transaction::kTypeName)),
              std::string::npos)
        << what;
  }
}

TYPED_TEST(CoordinatorRefusal, ASagaStoreOfAnotherProviderThanTheOutboxIsRefused) {
  using Foreign = typename TypeParam::Foreign;
  auto foreign_sagas = this->db_.foreign.open_sagas(this->clock_);
  HandlerRegistry handlers;
  try {
    SagaCoordinator<Fulfilment>(handlers, "audit", *foreign_sagas, &this->outbox_);
    ADD_FAILURE() << "a coordinator over two providers was constructed";
  } catch (const ConfigurationError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("saga coordinator 'audit': the " + std::string(Foreign::kProvider) +
                        " saga store works in " + std::string(Foreign::Transaction::kTypeName) +
                        ", but the outbox's " + std::string(TypeParam::kProvider) +
                        " store stages in " + std::string(TypeParam::Transaction::kTypeName)),
              std::string::npos)
        << what;
  }
  EXPECT_FALSE(handlers.required_transaction()) << "a refused coordinator requires nothing";
  EXPECT_NO_THROW(SagaCoordinator<Fulfilment>(handlers, "audit", *foreign_sagas))
      << "without an outbox only the saga store's type counts";
  EXPECT_EQ(handlers.required_transaction()->type, foreign_sagas->transaction_type());
}

TYPED_TEST(CoordinatorRefusal, SchedulingWithoutKeepingTimeoutsIsAConfigurationError) {
  HandlerRegistry handlers;
  SagaCoordinator<Fulfilment>(handlers, "audit", *this->sagas_, &this->outbox_)
      .template starts<OrderPlaced>("order-placed", by_order<OrderPlaced>,
                                    [](Fulfilment&, const OrderPlaced& e, SagaStepContext& step) {
                                      step.schedule_timeout("audit-due", e,
                                                            Timestamp(std::chrono::seconds(1)));
                                    });
  const InboxDispatcher inbox(*this->inbox_store_, InboxOptions("fulfilment"), std::move(handlers));
  expect_configuration_error([&] { inbox.dispatch(placed("m-1")); }, "keeps no timeouts");
  EXPECT_FALSE(this->recorded("m-1"));
  EXPECT_TRUE(this->sent().empty());
}

TYPED_TEST(CoordinatorRefusal, AStateCodecThatDropsTheTimeoutsIsRefusedWithNothingCommitted) {
  HandlerRegistry handlers;
  SagaCoordinator<Reminders, ForgetfulCodec>(handlers, "reminders", *this->sagas_, &this->outbox_)
      .keeps_timeouts_in(&Reminders::timeouts)
      .template starts<OrderPlaced>(
          "order-placed", by_order<OrderPlaced>,
          [this](Reminders& s, const OrderPlaced& e, SagaStepContext& step) {
            ++s.sent;
            step.schedule_timeout("reminder-due", e, this->clock_.now());
          });
  const InboxDispatcher inbox(*this->inbox_store_, InboxOptions("fulfilment"), std::move(handlers));
  expect_configuration_error([&] { inbox.dispatch(placed("m-1")); },
                             "does not keep the SagaTimeouts member");
  EXPECT_FALSE(this->recorded("m-1"));
  EXPECT_TRUE(this->sent().empty()) << "the timeout went with the rollback";
  EXPECT_FALSE(this->sagas_->load(SagaId(this->tenant_, "reminders", "O-1")).has_value());
}

TYPED_TEST(CoordinatorRefusal, TwoSagasOnOneMessageCommitTogether) {
  HandlerRegistry handlers = this->handlers();
  SagaCoordinator<Fulfilment>(handlers, "audit", *this->sagas_, &this->outbox_)
      .template starts<OrderPlaced>(
          "order-placed", by_order<OrderPlaced>,
          [](Fulfilment& s, const OrderPlaced&, SagaStepContext&) { s.history = {"audited"}; });
  const InboxDispatcher inbox(*this->inbox_store_, InboxOptions("fulfilment"), std::move(handlers));
  EXPECT_EQ(inbox.dispatch(placed("m-1")), DispatchOutcome::kProcessed);
  EXPECT_EQ(this->record()->version, 0);
  EXPECT_EQ(this->sagas_->load(SagaId(this->tenant_, "audit", "O-1"))->version, 0);
}

}  // namespace
}  // namespace docket::saga_tests
