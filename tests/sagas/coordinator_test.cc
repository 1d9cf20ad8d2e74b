// The saga coordinator through a real InboxDispatcher on every provider whose saga
// store joins the inbox's transaction: a step's state, its outbox messages and the
// dedup row commit together or not at all; the missing-saga and completed-saga
// policies; tenants.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "docket/sagas/saga_errors.h"
#include "saga_fixture.h"

namespace docket::saga_tests {
namespace {

template <typename Database>
using Coordinator = SagaFixture<Database>;
TYPED_TEST_SUITE(Coordinator, JoinDatabases, JoinCaseNames);

TYPED_TEST(Coordinator, RunsTheSagaToCompletionSendingAsItGoes) {
  EXPECT_EQ(this->inbox_.dispatch(placed("m-1")), DispatchOutcome::kProcessed);
  EXPECT_EQ(this->record()->version, 0);
  EXPECT_EQ(this->sent(), (std::vector<std::string>{"acme:capture-payment"}));

  EXPECT_EQ(this->inbox_.dispatch(paid("m-2")), DispatchOutcome::kProcessed);
  EXPECT_EQ(this->record()->version, 1);
  EXPECT_EQ(this->record()->status, SagaStatus::kActive);

  EXPECT_EQ(this->inbox_.dispatch(shipped("m-3")), DispatchOutcome::kProcessed);
  const auto done = this->record();
  EXPECT_EQ(done->version, 2);
  EXPECT_EQ(done->status, SagaStatus::kCompleted);
  EXPECT_EQ(done->completed_at, this->clock_.now());
  EXPECT_EQ(this->state(), (Fulfilment{.order = "O-1",
                                       .cents = 4200,
                                       .paid = true,
                                       .shipped = true,
                                       .cancelled = false,
                                       .history = {"placed", "paid", "shipped"}}));
  EXPECT_EQ(this->sent(), (std::vector<std::string>{"acme:capture-payment", "acme:ship-order"}));
  const auto rows = this->outbox_store_->read_feed(0, 10);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[1].causation_id, "m-2") << "a sent message names the message that caused it";
  EXPECT_EQ(this->probe_.steps, 3);
}

TYPED_TEST(Coordinator, AStepThatThrowsRollsBackStateOutboxAndDedupRow) {
  this->inbox_.dispatch(placed("m-1"));
  this->probe_.fail = true;
  EXPECT_THROW(this->inbox_.dispatch(paid("m-2")), std::runtime_error);
  EXPECT_EQ(this->probe_.steps, 2) << "the step ran, changed the state and sent before throwing";
  EXPECT_FALSE(this->recorded("m-2"));
  EXPECT_EQ(this->record()->version, 0);
  EXPECT_FALSE(this->state().paid);
  EXPECT_EQ(this->sent(), (std::vector<std::string>{"acme:capture-payment"}));

  this->probe_.fail = false;  // the transport redelivers
  EXPECT_EQ(this->inbox_.dispatch(paid("m-2")), DispatchOutcome::kProcessed);
  EXPECT_EQ(this->state().history, (std::vector<std::string>{"placed", "paid"}));
  EXPECT_EQ(this->sent(), (std::vector<std::string>{"acme:capture-payment", "acme:ship-order"}));
}

TYPED_TEST(Coordinator, ADuplicateDeliveryIsSkippedWithoutRunningTheStep) {
  this->inbox_.dispatch(placed("m-1"));
  this->inbox_.dispatch(paid("m-2"));
  EXPECT_EQ(this->inbox_.dispatch(paid("m-2")), DispatchOutcome::kSkippedDuplicate);
  EXPECT_EQ(this->inbox_.dispatch(placed("m-1")), DispatchOutcome::kSkippedDuplicate);
  EXPECT_EQ(this->probe_.steps, 2);
  EXPECT_EQ(this->record()->version, 1);
  EXPECT_EQ(this->sent().size(), 2u);
}

TYPED_TEST(Coordinator, AStartingMessageForAnActiveSagaContinuesIt) {
  this->inbox_.dispatch(placed("m-1"));
  EXPECT_EQ(this->inbox_.dispatch(placed("m-1-republished")), DispatchOutcome::kProcessed);
  EXPECT_EQ(this->state().history, (std::vector<std::string>{"placed", "placed-again"}));
  EXPECT_EQ(this->record()->version, 1);
}

TYPED_TEST(Coordinator, AContinuingMessageWithoutItsSagaIsRetried) {
  try {
    this->inbox_.dispatch(paid("m-2"));
    ADD_FAILURE() << "expected SagaNotFoundError";
  } catch (const SagaNotFoundError& e) {
    EXPECT_EQ(e.saga(), this->saga());
    EXPECT_EQ(e.message_id(), "m-2");
    EXPECT_EQ(e.event_type(), "payment-captured");
    EXPECT_NE(std::string(e.what()).find("IfSagaMissing::kIgnore"), std::string::npos);
  }
  EXPECT_FALSE(this->recorded("m-2"));
  EXPECT_FALSE(this->record().has_value());
  EXPECT_EQ(this->probe_.steps, 0);

  this->inbox_.dispatch(placed("m-1"));  // the starting message arrives; m-2 is redelivered
  EXPECT_EQ(this->inbox_.dispatch(paid("m-2")), DispatchOutcome::kProcessed);
  EXPECT_EQ(this->state().history, (std::vector<std::string>{"placed", "paid"}));
}

TYPED_TEST(Coordinator, AnIgnorableMessageWithoutItsSagaIsMarkedProcessed) {
  EXPECT_EQ(this->inbox_.dispatch(cancelled("m-9", "O-unknown")), DispatchOutcome::kProcessed);
  EXPECT_TRUE(this->recorded("m-9"));
  EXPECT_FALSE(this->record("O-unknown").has_value()) << "no saga was created";
  EXPECT_EQ(this->probe_.steps, 0);
  EXPECT_TRUE(this->sent().empty());
}

TYPED_TEST(Coordinator, ACompletedSagaIgnoresEveryLaterMessage) {
  this->inbox_.dispatch(placed("m-1"));
  this->inbox_.dispatch(cancelled("m-2"));
  ASSERT_EQ(this->record()->status, SagaStatus::kCompleted);
  const SagaRecord finished = *this->record();

  for (const Envelope& late : {paid("m-3"), shipped("m-4"), placed("m-5"), cancelled("m-6")}) {
    EXPECT_EQ(this->inbox_.dispatch(late), DispatchOutcome::kProcessed) << late.event_type;
    EXPECT_TRUE(this->recorded(late.message_id)) << late.event_type;
  }
  EXPECT_EQ(this->probe_.steps, 2) << "no step of a completed saga runs again";
  EXPECT_EQ(*this->record(), finished);
  EXPECT_EQ(this->sent(), (std::vector<std::string>{"acme:capture-payment"}));
}

TYPED_TEST(Coordinator, TwoTenantsWithOneSagaIdHaveTwoSagas) {
  const TenantId globex("globex");
  this->inbox_.dispatch(placed("m-1"));
  {
    TenantScope other(globex);
    EXPECT_THROW(this->inbox_.dispatch(shipped("m-1")), SagaNotFoundError)
        << "acme's saga is not globex's";
    EXPECT_EQ(this->inbox_.dispatch(placed("m-1")), DispatchOutcome::kProcessed)
        << "the same message id is a new message for another tenant";
    EXPECT_EQ(this->inbox_.dispatch(cancelled("m-2")), DispatchOutcome::kProcessed);
  }
  EXPECT_EQ(this->inbox_.dispatch(paid("m-2")), DispatchOutcome::kProcessed);

  const auto acme = this->record();
  const auto theirs = this->sagas_->load(SagaId(globex, kSagaType, "O-1"));
  ASSERT_TRUE(theirs.has_value());
  EXPECT_EQ(acme->version, 1);
  EXPECT_EQ(acme->status, SagaStatus::kActive);
  EXPECT_EQ(this->state().history, (std::vector<std::string>{"placed", "paid"}));
  EXPECT_EQ(theirs->version, 1);
  EXPECT_EQ(theirs->status, SagaStatus::kCompleted);
  EXPECT_EQ(JsonCodec<Fulfilment>().decode(theirs->state).history,
            (std::vector<std::string>{"placed", "cancelled"}));
  EXPECT_EQ(this->sent(), (std::vector<std::string>{"acme:capture-payment",
                                                    "globex:capture-payment", "acme:ship-order"}));
}

TYPED_TEST(Coordinator, ABatchRunsStepsInOrderAndDropsOnlyTheFailedOne) {
  const std::vector<Envelope> batch{placed("m-1"), paid("m-2"), paid("m-9", "O-2"), shipped("m-3")};
  const auto results = this->inbox_.dispatch_batch(batch);
  ASSERT_EQ(results.size(), 4u);
  EXPECT_TRUE(results[0].ok() && results[1].ok() && results[3].ok());
  ASSERT_FALSE(results[2].ok());
  EXPECT_THROW(std::rethrow_exception(results[2].error), SagaNotFoundError);
  EXPECT_EQ(this->record()->version, 2) << "each step loaded the one before it in the batch";
  EXPECT_EQ(this->record()->status, SagaStatus::kCompleted);
  EXPECT_EQ(this->sent(), (std::vector<std::string>{"acme:capture-payment", "acme:ship-order"}));
}

TYPED_TEST(Coordinator, ConcurrentStepsOfOneSagaAreEachAppliedOnce) {
  this->inbox_.dispatch(placed("m-1"));
  const int conflicts = deliver_at_once(this->inbox_, this->tenant_, {paid("m-2"), shipped("m-3")});
  EXPECT_EQ(this->probe_.steps, 3 + conflicts);
  const auto done = this->record();
  EXPECT_EQ(done->version, 2);
  EXPECT_EQ(done->status, SagaStatus::kCompleted);
  EXPECT_EQ(this->state().history.size(), 3u);
  EXPECT_EQ(this->sent().size(), 2u);
}

}  // namespace
}  // namespace docket::saga_tests
