// Concurrent steps of one saga on PostgreSQL, in real threads on real connections:
// steps of an existing saga queue on its row lock (the second waits inside its load
// until the first commits, then runs on the new state); two messages racing to start
// one saga end with one SagaConflictError, and the retried message then runs on the
// winner's state. Either way each step is applied exactly once.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <barrier>
#include <chrono>
#include <string>
#include <vector>

#include "docket/postgres/transaction.h"
#include "docket/sagas/saga_errors.h"
#include "providers/postgres/conformance/postgres_lock_wait.h"
#include "sagas/saga_fixture.h"

namespace docket::saga_tests {
namespace {

using PostgresDatabase = postgres::conformance::JoinDatabase;
using PostgresSagaRace = SagaFixture<PostgresDatabase>;

TEST_F(PostgresSagaRace, StepsOfOneSagaQueueOnItsRowLock) {
  inbox_.dispatch(placed("m-1"));
  std::atomic<bool> queued = false;
  probe_.inside_step = [&](const SagaStepContext& step) {
    if (step.loaded_version() == 0) {  // the first of the two: holds the row lock
      queued = postgres::conformance::another_session_waits_on(
          step.handler().transaction<postgres::Transaction>(), std::chrono::seconds(60));
    }
  };
  const int conflicts = deliver_at_once(inbox_, tenant_, {paid("m-2"), shipped("m-3")});
  EXPECT_TRUE(queued) << "the second step never waited on the first one's row lock";
  EXPECT_EQ(conflicts, 0) << "queued steps do not conflict";
  EXPECT_EQ(probe_.steps, 3) << "each step ran once";
  const auto done = record();
  EXPECT_EQ(done->version, 2);
  EXPECT_EQ(done->status, SagaStatus::kCompleted);
  const Fulfilment s = state();
  EXPECT_TRUE(s.paid && s.shipped);
  EXPECT_EQ(s.history.size(), 3u);
  EXPECT_EQ(sent().size(), 2u);
}

TEST_F(PostgresSagaRace, TwoMessagesRacingToStartOneSagaConflictOnceAndRetry) {
  // A saga either message may start; both steps wait for each other after loading, so
  // both have seen no saga and both insert it.
  std::barrier<> both_loaded(2);
  std::atomic<int> first_attempts = 0;
  auto meet = [&](Fulfilment& s, std::string what, SagaStepContext& step) {
    s.history.push_back(std::move(what));
    step.send("noted", OrderShipped{step.saga().saga_id()});
    if (first_attempts++ < 2) {
      both_loaded.arrive_and_wait();
    }
  };
  HandlerRegistry handlers;
  SagaCoordinator<Fulfilment>(handlers, "intake", *sagas_, &outbox_)
      .starts<OrderPlaced>("order-placed", by_order<OrderPlaced>,
                           [&](Fulfilment& s, const OrderPlaced&, SagaStepContext& step) {
                             meet(s, "placed", step);
                           })
      .starts<PaymentCaptured>("payment-captured", by_order<PaymentCaptured>,
                               [&](Fulfilment& s, const PaymentCaptured&, SagaStepContext& step) {
                                 meet(s, "paid", step);
                               });
  const InboxDispatcher inbox(*inbox_store_, InboxOptions("intake"), std::move(handlers));

  const int conflicts = deliver_at_once(inbox, tenant_, {placed("m-1"), paid("m-2")});
  EXPECT_EQ(conflicts, 1) << "the loser's insert found the winner's saga";
  const auto saga = sagas_->load(SagaId(tenant_, "intake", "O-1"));
  ASSERT_TRUE(saga.has_value());
  EXPECT_EQ(saga->version, 1);
  auto history = JsonCodec<Fulfilment>().decode(saga->state).history;
  std::sort(history.begin(), history.end());
  EXPECT_EQ(history, (std::vector<std::string>{"paid", "placed"}));
  EXPECT_EQ(sent().size(), 2u) << "the rolled-back attempt's message vanished with it";
}

}  // namespace
}  // namespace docket::saga_tests
