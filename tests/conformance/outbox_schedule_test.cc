// Scheduled messages and cancel, on every outbox provider: a message staged with
// deliver_at is never claimed before it (also by a relay started after the staging),
// one in the past is due at once, one beyond kMaxDeliverAt is refused with nothing
// staged; a scheduled message holds its ordering key. Outbox::cancel takes back a
// pending message no relay holds (it is then never published and releases its key)
// and answers every other case plainly: published, being published (claimed, also past
// the claim's lease), not pending, unknown.
#include <chrono>

#include "docket/core/error.h"
#include "outbox_suite.h"

namespace docket::conformance {
namespace {

using namespace std::chrono_literals;

class OutboxScheduleTest : public OutboxConformance {
 protected:
  // A relay as a service starts it: a new one each time (state only in the store).
  RelayPass relay_once() {
    Relay relay(*store_, transport_, RelayOptions(test_settings()), clock_);
    return relay.run_once();
  }

  InProcessTransport transport_{1000};
};

TEST_P(OutboxScheduleTest, AScheduledMessageIsNeverPublishedBeforeItsTime) {
  const std::string id =
      stage({.event_type = "ReminderDue", .payload = "{}", .deliver_at = clock_.now() + 1h});
  EXPECT_EQ(store_->find(id)->next_attempt_at, clock_.now() + 1h);
  EXPECT_EQ(relay_once().claimed, 0U);
  clock_.advance(1h - 1us);
  EXPECT_EQ(relay_once().claimed, 0U);
  clock_.advance(1us);
  EXPECT_EQ(relay_once().published, 1U);
  EXPECT_EQ(drain(transport_), std::vector<std::string>{id});
}

TEST_P(OutboxScheduleTest, ATimeInThePastIsDueAtOnce) {
  const std::string id =
      stage({.event_type = "ReminderDue", .payload = "{}", .deliver_at = clock_.now() - 1h});
  EXPECT_EQ(store_->find(id)->next_attempt_at, clock_.now());
  EXPECT_EQ(relay_once().published, 1U);
}

TEST_P(OutboxScheduleTest, ATimeBeyondWhatEveryStoreHoldsIsRefusedAndNothingStaged) {
  {
    auto unit = store_->begin();
    EXPECT_THROW(outbox_->stage(unit->handler_transaction(), {.event_type = "ReminderDue",
                                                              .payload = "{}",
                                                              .deliver_at = kMaxDeliverAt + 1us}),
                 InvalidInputError);
    unit->commit();
  }
  EXPECT_TRUE(store_->read_feed(0, 10).empty());
  // The latest time itself is held.
  const std::string id =
      stage({.event_type = "ReminderDue", .payload = "{}", .deliver_at = kMaxDeliverAt});
  EXPECT_EQ(store_->find(id)->next_attempt_at, kMaxDeliverAt);
}

TEST_P(OutboxScheduleTest, ACancelledMessageIsNeverPublished) {
  const std::string id =
      stage({.event_type = "ReminderDue", .payload = "{}", .deliver_at = clock_.now() + 1h});
  EXPECT_EQ(outbox_->cancel(id), CancelOutcome::kCancelled);
  clock_.advance(2h);
  EXPECT_EQ(relay_once().claimed, 0U);
  EXPECT_TRUE(drain(transport_).empty());
  const OutboxRecord row = store_->find(id).value();
  EXPECT_EQ(row.status, OutboxStatus::kCancelled);
  EXPECT_EQ(row.done_at, clock_.now() - 2h);
  EXPECT_EQ(outbox_->cancel(id), CancelOutcome::kNotPending);  // once is enough
}

TEST_P(OutboxScheduleTest, AMessageDueNowOrInBackoffCanBeCancelledToo) {
  const std::string due = stage({.event_type = "OrderPlaced", .payload = "{}"});
  EXPECT_EQ(outbox_->cancel(due), CancelOutcome::kCancelled);
  const std::string failing = stage({.event_type = "OrderPlaced", .payload = "{}"});
  transport_.set_faults({.publish_failure = 1.0});
  EXPECT_EQ(relay_once().retried, 1U);  // in backoff now, its lease ended
  EXPECT_EQ(outbox_->cancel(failing), CancelOutcome::kCancelled);
  transport_.set_faults({});
  clock_.advance(1h);
  EXPECT_EQ(relay_once().claimed, 0U);
}

TEST_P(OutboxScheduleTest, ACancelAnswersPlainlyWhenItCannotCancel) {
  const std::string published = stage({.event_type = "OrderPlaced", .payload = "{}"});
  EXPECT_EQ(relay_once().published, 1U);
  EXPECT_EQ(outbox_->cancel(published), CancelOutcome::kAlreadyPublished);
  EXPECT_EQ(store_->find(published)->status, OutboxStatus::kDone);

  // Claimed by a relay: it may be on its way to the broker, also after its lease ended.
  const std::string claimed = stage({.event_type = "OrderPlaced", .payload = "{}"});
  ASSERT_EQ(store_->claim("relay-1", clock_.now(), clock_.now() + 30s, 10).size(), 1U);
  EXPECT_EQ(outbox_->cancel(claimed), CancelOutcome::kBeingPublished);
  clock_.advance(1min);
  EXPECT_EQ(outbox_->cancel(claimed), CancelOutcome::kBeingPublished);
  // Once that relay recorded a failed attempt, nobody holds it.
  ASSERT_TRUE(store_->fail(claimed, "relay-1",
                           {.error = "broker down", .next_attempt_at = clock_.now() + 1s}));
  EXPECT_EQ(outbox_->cancel(claimed), CancelOutcome::kCancelled);

  EXPECT_EQ(outbox_->cancel(Uuid::v7().to_string()), CancelOutcome::kNotFound);
  EXPECT_THROW(outbox_->cancel(""), InvalidInputError);
}

TEST_P(OutboxScheduleTest, AScheduledMessageHoldsItsKeyUntilCancelled) {
  const std::string later_first = stage({.event_type = "OrderPlaced",
                                         .payload = "{}",
                                         .ordering_key = "order-1",
                                         .deliver_at = clock_.now() + 1h});
  const std::string next =
      stage({.event_type = "OrderPlaced", .payload = "{}", .ordering_key = "order-1"});
  EXPECT_EQ(relay_once().claimed, 0U);  // `next` waits for the scheduled one of its key
  EXPECT_EQ(outbox_->cancel(later_first), CancelOutcome::kCancelled);
  EXPECT_EQ(relay_once().published, 1U);
  EXPECT_EQ(drain(transport_), std::vector<std::string>{next});
}

INSTANTIATE_TEST_SUITE_P(AllProviders, OutboxScheduleTest,
                         ::testing::ValuesIn(all_outbox_providers()), outbox_provider_name);

}  // namespace
}  // namespace docket::conformance
