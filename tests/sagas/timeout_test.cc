// Saga timeouts (docket/sagas/saga_timeouts.h) through a real InboxDispatcher, outbox
// and relay on every provider whose saga store joins the inbox's transaction: a
// timeout exists exactly when the save that scheduled it committed, arrives no earlier
// than due through the relay and the inbox and runs its step once, and one replaced,
// cancelled or left by a completed saga is withdrawn from the outbox and, if it comes
// anyway, runs no step.
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "checkout_saga.h"
#include "conformance/eventsourcing/join_databases.h"
#include "docket/inbox/inbox_dispatcher.h"
#include "docket/outbox/outbox.h"
#include "docket/outbox/relay.h"
#include "docket/transports/consumer_runner.h"
#include "docket/transports/in_process_transport.h"
#include "saga_fixture.h"

namespace docket::saga_tests {
namespace {

using namespace std::chrono_literals;

template <typename Database>
class SagaTimeoutTest : public ::testing::Test {
 protected:
  SagaTimeoutTest() { open(manual_); }

  // Opens the stores, the outbox and the dispatcher on `clock` (again, for a test that
  // runs in real time).
  void open(const Clock& clock) {
    inbox_.reset();
    inbox_store_ = db_.open_inbox(clock);
    outbox_store_ = db_.open_outbox(clock);
    sagas_ = db_.open_sagas(clock);
    outbox_ = std::make_unique<Outbox>(*outbox_store_, clock);
    HandlerRegistry handlers;
    register_checkout(handlers, *sagas_, outbox_.get(), clock, probe_);
    inbox_ = std::make_unique<InboxDispatcher>(*inbox_store_, InboxOptions("checkout"),
                                               std::move(handlers));
  }

  DispatchOutcome deliver(std::string id, std::string_view event_type, const auto& event) {
    return inbox_->dispatch(envelope(std::move(id), event_type, event));
  }

  Checkout state(std::string_view order = "O-1") {
    const auto loaded = sagas_->load(SagaId(tenant_, kCheckoutSaga, order));
    EXPECT_TRUE(loaded.has_value()) << "no saga " << order;
    return loaded ? JsonCodec<Checkout>().decode(loaded->state) : Checkout{};
  }
  std::int64_t version(std::string_view order = "O-1") {
    return sagas_->load(SagaId(tenant_, kCheckoutSaga, order)).value().version;
  }

  // The pending timeout's id, or "" when there is none.
  std::string pending(std::string_view order = "O-1") {
    const Checkout loaded = state(order);
    const SagaTimeout* timeout = loaded.timeouts.find(kPaymentDue);
    return timeout == nullptr ? "" : timeout->message_id;
  }

  // The outbox row `id` delivered as the transport would (tenant in scope).
  DispatchOutcome arrive(const std::string& id) {
    const OutboxRecord row = outbox_store_->find(id).value();
    Envelope e;
    e.message_id = row.id;
    e.event_type = row.event_type;
    e.payload = row.payload;
    e.occurred_at = row.occurred_at;
    return inbox_->dispatch(e);
  }

  OutboxStatus status_of(const std::string& id) { return outbox_store_->find(id).value().status; }

  Database db_;
  ManualClock manual_{Timestamp(std::chrono::seconds(1'800'000'000))};
  std::unique_ptr<InboxStore> inbox_store_;
  std::unique_ptr<OutboxStore> outbox_store_;
  std::unique_ptr<SagaStore> sagas_;
  std::unique_ptr<Outbox> outbox_;
  CheckoutProbe probe_;
  std::unique_ptr<InboxDispatcher> inbox_;
  TenantId tenant_{"acme"};
  TenantScope scope_{tenant_};
};
TYPED_TEST_SUITE(SagaTimeoutTest, JoinDatabases, JoinCaseNames);

TYPED_TEST(SagaTimeoutTest, ATimeoutIsStagedWithTheSaveThatScheduledIt) {
  EXPECT_EQ(this->deliver("m-1", "checkout-started", CheckoutStarted{"O-1", 60'000}),
            DispatchOutcome::kProcessed);
  const std::string id = this->pending();
  ASSERT_FALSE(id.empty());
  const OutboxRecord row = this->outbox_store_->find(id).value();
  EXPECT_EQ(row.event_type, kPaymentDue);
  EXPECT_EQ(row.status, OutboxStatus::kPending);
  EXPECT_EQ(row.next_attempt_at, this->manual_.now() + 60s) << "delivered no earlier than due";
  EXPECT_EQ(row.causation_id, "m-1");
  EXPECT_EQ(this->state().timeouts.find(kPaymentDue)->due, this->manual_.now() + 60s);
}

TYPED_TEST(SagaTimeoutTest, AStepThatThrowsAfterSchedulingLeavesNoTimeout) {
  this->probe_.fail = true;
  EXPECT_THROW(this->deliver("m-1", "checkout-started", CheckoutStarted{"O-1", 60'000}),
               std::runtime_error);
  EXPECT_TRUE(this->outbox_store_->read_feed(0, 10).empty()) << "no timeout without its save";
  EXPECT_FALSE(this->sagas_->load(SagaId(this->tenant_, kCheckoutSaga, "O-1")).has_value());
}

TYPED_TEST(SagaTimeoutTest, ATimeoutArrivesThroughTheRelayNoEarlierThanDueAndRunsOnce) {
  this->deliver("m-1", "checkout-started", CheckoutStarted{"O-1", 60'000});
  InProcessTransport transport(100);
  ConsumerRunnerSettings settings;
  settings.poll = 10ms;
  ConsumerRunner consumer(
      transport, *this->inbox_,
      ConsumerRunnerOptions({.destination = std::string(kPaymentDue), .group = "checkout"},
                            settings));
  EXPECT_EQ(consumer.run_once(), 0U);  // subscribed: what is published from now on is its
  const auto relay_once = [&] {
    Relay relay(*this->outbox_store_, transport, RelayOptions(), this->manual_);
    return relay.run_once();
  };
  this->manual_.advance(60s - 1us);
  EXPECT_EQ(relay_once().published, 0U) << "not before it is due";
  EXPECT_EQ(consumer.run_once(), 0U);
  EXPECT_EQ(this->probe_.timeouts_run, 0);

  this->manual_.advance(1us);
  EXPECT_EQ(relay_once().published, 1U);
  EXPECT_EQ(consumer.run_once(), 1U);
  EXPECT_EQ(this->probe_.timeouts_run, 1);
  const Checkout done = this->state();
  EXPECT_TRUE(done.expired);
  EXPECT_TRUE(done.timeouts.pending.empty()) << "an arrived timeout is no longer pending";
  EXPECT_EQ(this->sagas_->load(SagaId(this->tenant_, kCheckoutSaga, "O-1"))->status,
            SagaStatus::kCompleted);

  // The transport delivers it again: the inbox skips the duplicate.
  const std::string id = this->outbox_store_->read_feed(0, 10).front().id;
  EXPECT_EQ(this->arrive(id), DispatchOutcome::kSkippedDuplicate);
  EXPECT_EQ(this->probe_.timeouts_run, 1);
}

TYPED_TEST(SagaTimeoutTest, ARescheduledTimeoutIsWithdrawnAndRunsNoStepIfItComes) {
  this->deliver("m-1", "checkout-started", CheckoutStarted{"O-1", 60'000});
  const std::string first = this->pending();
  this->deliver("m-2", "deadline-extended", DeadlineExtended{"O-1", 120'000});
  const std::string second = this->pending();
  ASSERT_NE(first, second);
  EXPECT_EQ(this->status_of(first), OutboxStatus::kCancelled) << "withdrawn after the commit";
  EXPECT_EQ(this->status_of(second), OutboxStatus::kPending);
  EXPECT_EQ(this->outbox_store_->find(second)->next_attempt_at, this->manual_.now() + 120s);

  // One a relay had already taken comes anyway: stale, marked processed, no step.
  const std::int64_t before = this->version();
  EXPECT_EQ(this->arrive(first), DispatchOutcome::kProcessed);
  EXPECT_EQ(this->probe_.timeouts_run, 0);
  EXPECT_EQ(this->version(), before) << "a stale timeout saves nothing";
  EXPECT_EQ(this->pending(), second);

  EXPECT_EQ(this->arrive(second), DispatchOutcome::kProcessed);
  EXPECT_EQ(this->probe_.timeouts_run, 1);
  EXPECT_TRUE(this->state().expired);
}

TYPED_TEST(SagaTimeoutTest, ACancelledTimeoutIsWithdrawnAndRunsNoStep) {
  this->deliver("m-1", "checkout-started", CheckoutStarted{"O-1", 60'000});
  const std::string id = this->pending();
  this->deliver("m-2", "checkout-abandoned", CheckoutAbandoned{"O-1"});
  EXPECT_EQ(this->pending(), "");
  EXPECT_EQ(this->status_of(id), OutboxStatus::kCancelled);
  EXPECT_EQ(this->arrive(id), DispatchOutcome::kProcessed);
  EXPECT_EQ(this->probe_.timeouts_run, 0);
  EXPECT_FALSE(this->state().expired);
}

TYPED_TEST(SagaTimeoutTest, CompletingASagaWithdrawsItsPendingTimeouts) {
  this->deliver("m-1", "checkout-started", CheckoutStarted{"O-1", 60'000});
  const std::string id = this->pending();
  this->deliver("m-2", "payment-received", PaymentReceived{"O-1"});
  EXPECT_EQ(this->pending(), "");
  EXPECT_EQ(this->status_of(id), OutboxStatus::kCancelled);
  EXPECT_EQ(this->arrive(id), DispatchOutcome::kProcessed);  // completed: ignored
  EXPECT_EQ(this->probe_.timeouts_run, 0);
}

TYPED_TEST(SagaTimeoutTest, ConcurrentReschedulesLeaveOnePendingTimeoutAndWithdrawTheRest) {
  this->deliver("m-1", "checkout-started", CheckoutStarted{"O-1", 60'000});
  // Four extensions at once: a step whose save conflicts is rolled back with the
  // timeout it staged and without withdrawing the one it replaced; its redelivery runs
  // on the winner's state.
  std::vector<Envelope> extensions;
  for (int i = 0; i < 4; ++i) {
    extensions.push_back(envelope("x-" + std::to_string(i), "deadline-extended",
                                  DeadlineExtended{"O-1", 60'000 + i}));
  }
  deliver_at_once(*this->inbox_, this->tenant_, extensions);
  const std::string pending = this->pending();
  int pending_rows = 0;
  int timeout_rows = 0;
  for (const OutboxRecord& row : this->outbox_store_->read_feed(0, 100)) {
    if (row.event_type != kPaymentDue) {
      continue;
    }
    ++timeout_rows;
    if (row.status == OutboxStatus::kPending) {
      ++pending_rows;
      EXPECT_EQ(row.id, pending) << "the pending row is the one the saga waits for";
    } else {
      EXPECT_EQ(row.status, OutboxStatus::kCancelled);
    }
  }
  EXPECT_EQ(pending_rows, 1);
  EXPECT_EQ(timeout_rows, 5) << "the start's and one per committed extension, no more";
}

TYPED_TEST(SagaTimeoutTest, InRealTimeATimeoutComesWhenDueAndNotBefore) {
  this->open(SystemClock::instance());
  InProcessTransport transport(100);
  ConsumerRunnerSettings consumer_settings;
  consumer_settings.poll = 10ms;
  ConsumerRunner consumer(
      transport, *this->inbox_,
      ConsumerRunnerOptions({.destination = std::string(kPaymentDue), .group = "checkout"},
                            consumer_settings));
  EXPECT_EQ(consumer.run_once(), 0U);  // subscribed before anything is published
  RelaySettings relay_settings;
  relay_settings.poll_interval = 20ms;
  relay_settings.max_poll_interval = 20ms;
  Relay relay(*this->outbox_store_, transport, RelayOptions(relay_settings));
  const Timestamp started = SystemClock::instance().now();
  this->deliver("m-1", "checkout-started", CheckoutStarted{"O-1", 300});
  {
    std::jthread relaying([&relay](std::stop_token stop) { relay.run(stop); });
    std::jthread consuming([&consumer](std::stop_token stop) { consumer.run(stop); });
    const auto deadline = std::chrono::steady_clock::now() + 20s;
    while (this->probe_.timeouts_run == 0 && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(5ms);  // a bounded wait for an outcome, not for a race
    }
  }
  ASSERT_EQ(this->probe_.timeouts_run, 1) << "the timeout never ran within 20 s";
  EXPECT_GE(this->probe_.ran_at, started + 300ms) << "never before it is due";
  EXPECT_TRUE(this->state().expired);
}

}  // namespace
}  // namespace docket::saga_tests
