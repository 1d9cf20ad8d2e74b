// The relay: publishes everything at least once with the id verbatim, backs off on a
// failing transport (time moved by a ManualClock), parks after max attempts, replays.
#include <algorithm>

#include "docket/core/tenant.h"
#include "docket/outbox/backoff.h"
#include "outbox_suite.h"

namespace docket::conformance {
namespace {

class OutboxRelayTest : public OutboxConformance {
 protected:
  void SetUp() override {
    OutboxConformance::SetUp();
    relay_ = std::make_unique<Relay>(*store_, transport_, RelayOptions(test_settings()), clock_);
  }

  InProcessTransport transport_{1000};
  std::unique_ptr<Relay> relay_;
};

TEST_P(OutboxRelayTest, PublishesEveryMessageWithItsOutboxIdAndMarksItDone) {
  const auto ids = stage_orders(25);
  RelayPass pass;
  std::size_t passes = 0;
  do {
    pass = relay_->run_once();
    ++passes;
  } while (pass.claimed > 0);
  EXPECT_EQ(passes, 4U);  // 10 + 10 + 5, then nothing

  auto received = drain(transport_);
  EXPECT_EQ(received, ids);  // one relay, no faults: sequence order
  for (const auto& id : ids) {
    const auto row = store_->find(id).value();
    EXPECT_EQ(row.status, OutboxStatus::kDone);
    EXPECT_EQ(row.done_at, clock_.now());
  }
  EXPECT_EQ(relay_->stats().published, 25U);
}

TEST_P(OutboxRelayTest, EnvelopeCarriesTenantLineageAndTrace) {
  auto unit = store_->begin();
  std::string id;
  {
    TenantScope acme(TenantId("acme"));
    id = outbox_
             ->stage(unit->handler_transaction(),
                     {.event_type = "OrderPlaced",
                      .payload = "{}",
                      .source = "orders",
                      .causation_id = "cause",
                      .correlation_id = "corr",
                      .traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"})
             .to_string();
  }
  unit->commit();
  unit.reset();  // return the connection (sqlite::memory: has one)
  relay_->run_once();
  auto subscription = transport_.subscribe({});
  const auto delivery = subscription.next(std::chrono::milliseconds(0)).value();
  EXPECT_EQ(delivery.message.tenant, "acme");
  const Envelope& e = delivery.message.envelope;
  EXPECT_EQ(e.message_id, id);
  EXPECT_EQ(e.event_type, "OrderPlaced");
  EXPECT_EQ(e.payload, "{}");
  EXPECT_EQ(e.source, "orders");
  EXPECT_EQ(e.causation_id, "cause");
  EXPECT_EQ(e.correlation_id, "corr");
  EXPECT_EQ(e.traceparent, "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
}

TEST_P(OutboxRelayTest, FailingTransportBacksOffExponentiallyThenDelivers) {
  const auto ids = stage_orders(1);
  const RelayOptions options(test_settings());
  transport_.set_faults({.publish_failure = 1.0});

  EXPECT_EQ(relay_->run_once().retried, 1U);
  auto row = store_->find(ids[0]).value();
  EXPECT_EQ(row.attempts, 1);
  EXPECT_NE(row.last_error.value_or("").find("injected publish failure"), std::string::npos);
  EXPECT_EQ(row.next_attempt_at, clock_.now() + std::chrono::seconds(1));
  EXPECT_EQ(retry_delay(options, ids[0], 1), std::chrono::seconds(1));

  clock_.advance(std::chrono::milliseconds(999));
  EXPECT_EQ(relay_->run_once().claimed, 0U);  // not due yet
  clock_.advance(std::chrono::milliseconds(1));
  EXPECT_EQ(relay_->run_once().retried, 1U);
  row = store_->find(ids[0]).value();
  EXPECT_EQ(row.attempts, 2);
  EXPECT_EQ(row.next_attempt_at, clock_.now() + std::chrono::seconds(2));  // doubled

  transport_.set_faults({});
  clock_.advance(std::chrono::seconds(2));
  EXPECT_EQ(relay_->run_once().published, 1U);
  EXPECT_EQ(drain(transport_), ids);
  EXPECT_EQ(store_->find(ids[0])->status, OutboxStatus::kDone);
}

// A broker's error text may hold any bytes: the attempt is recorded with them escaped
// (\xNN), on every store, and none of it is lost or replaced.
TEST_P(OutboxRelayTest, AnErrorTextThatIsNotUtf8IsRecordedEscaped) {
  class GarbledRefusals final : public Transport {
   public:
    std::string describe() const override { return "a transport whose errors are not UTF-8"; }

   protected:
    std::vector<PublishResult> do_publish_batch(std::span<const TransportMessage> batch) override {
      return std::vector<PublishResult>(
          batch.size(), PublishResult::failed(PublishStatus::kRetryable, "broker said \xff\xfe!"));
    }
  };
  GarbledRefusals transport;
  Relay relay(*store_, transport, RelayOptions(test_settings()), clock_);
  const auto ids = stage_orders(1);
  EXPECT_EQ(relay.run_once().retried, 1U);
  EXPECT_EQ(store_->find(ids[0])->last_error, "retryable: broker said \\xFF\\xFE!");
}

// publish_batch_size below batch_size: one claim, its rows published in chunks in
// staging order, each chunk one publish_batch call; the confirmed rows are marked done
// and the refused one is scheduled again, as if the claim had been published at once.
TEST_P(OutboxRelayTest, PublishesAClaimInChunksOfThePublishBatchSize) {
  class Chunks final : public Transport {
   public:
    std::string describe() const override { return "a transport counting its batches"; }
    std::vector<std::size_t> sizes;
    std::vector<std::string> sent;
    std::string refuse;

   protected:
    std::vector<PublishResult> do_publish_batch(std::span<const TransportMessage> batch) override {
      sizes.push_back(batch.size());
      std::vector<PublishResult> results;
      for (const TransportMessage& m : batch) {
        sent.push_back(m.envelope.message_id);
        results.push_back(m.envelope.message_id == refuse
                              ? PublishResult::failed(PublishStatus::kNacked, "nacked")
                              : PublishResult::confirmed());
      }
      return results;
    }
  };
  Chunks transport;
  const auto ids = stage_orders(7);
  transport.refuse = ids[3];
  RelaySettings settings = test_settings();
  settings.batch_size = 100;
  settings.publish_batch_size = 3;
  Relay relay(*store_, transport, RelayOptions(settings), clock_);
  const RelayPass pass = relay.run_once();
  EXPECT_EQ(pass.claimed, 7U);
  EXPECT_EQ(pass.batches, 3U);
  EXPECT_EQ(pass.published, 6U);
  EXPECT_EQ(pass.retried, 1U);
  EXPECT_EQ(transport.sizes, (std::vector<std::size_t>{3, 3, 1}));
  EXPECT_EQ(transport.sent, ids);
  for (std::size_t i = 0; i < ids.size(); ++i) {
    EXPECT_EQ(store_->find(ids[i])->status, i == 3 ? OutboxStatus::kPending : OutboxStatus::kDone)
        << i;
  }
}

TEST_P(OutboxRelayTest, MaxAttemptsParksAndReplayRepublishes) {
  const auto ids = stage_orders(2);
  transport_.set_faults({.publish_failure = 1.0});
  RelayPass pass;
  for (int attempt = 1; attempt <= 3; ++attempt) {
    pass = relay_->run_once();
    clock_.advance(std::chrono::minutes(5));
  }
  EXPECT_EQ(pass.parked, 2U);
  EXPECT_EQ(relay_->run_once().claimed, 0U);  // parked rows are never claimed

  const auto parked = outbox_->parked();
  ASSERT_EQ(parked.size(), 2U);
  EXPECT_EQ(parked[0].id, ids[0]);
  EXPECT_EQ(parked[0].status, OutboxStatus::kParked);
  EXPECT_EQ(parked[0].attempts, 3);
  EXPECT_NE(parked[0].last_error.value_or("").find("attempt 3"), std::string::npos);
  EXPECT_EQ(outbox_->parked(10, parked[0].sequence).size(), 1U);

  transport_.set_faults({});
  EXPECT_TRUE(outbox_->replay(ids[1]));
  EXPECT_FALSE(outbox_->replay(ids[1]));  // no longer parked
  EXPECT_FALSE(outbox_->replay("not-an-id"));
  EXPECT_EQ(relay_->run_once().published, 1U);
  EXPECT_EQ(drain(transport_), std::vector<std::string>{ids[1]});
  EXPECT_EQ(outbox_->parked().size(), 1U);
  EXPECT_THROW(outbox_->replay(""), InvalidInputError);
}

TEST_P(OutboxRelayTest, ExpiredLeaseIsReclaimedAndTheStaleRelayCannotComplete) {
  const auto ids = stage_orders(1);
  const auto first =
      store_->claim("token-a", clock_.now(), clock_.now() + std::chrono::seconds(30), 10);
  ASSERT_EQ(first.size(), 1U);
  EXPECT_TRUE(
      store_->claim("token-b", clock_.now(), clock_.now() + std::chrono::seconds(30), 10).empty());
  clock_.advance(std::chrono::seconds(30));
  const auto second =
      store_->claim("token-b", clock_.now(), clock_.now() + std::chrono::seconds(30), 10);
  ASSERT_EQ(second.size(), 1U);
  EXPECT_FALSE(store_->complete(ids[0], "token-a", clock_.now()));
  EXPECT_FALSE(store_->fail(ids[0], "token-a", {.error = "late"}));
  EXPECT_TRUE(store_->complete(ids[0], "token-b", clock_.now()));
  EXPECT_FALSE(store_->complete(ids[0], "token-b", clock_.now()));  // done already
}

TEST_P(OutboxRelayTest, CompleteAllMarksOnlyTheRowsItsTokenLeases) {
  const auto ids = stage_orders(4);
  const auto lease = clock_.now() + std::chrono::seconds(30);
  ASSERT_EQ(store_->claim("token-a", clock_.now(), lease, 3).size(), 3U);
  ASSERT_EQ(store_->claim("token-b", clock_.now(), lease, 10).size(), 1U);  // ids[3]
  EXPECT_TRUE(store_->complete(ids[1], "token-a", clock_.now()));           // done already
  const std::vector<std::string> batch{ids[0], ids[1], ids[2], ids[3], "not-an-id"};
  EXPECT_EQ(store_->complete_all(batch, "token-a", clock_.now()), 2U);
  EXPECT_EQ(store_->complete_all(std::vector<std::string>{}, "token-a", clock_.now()), 0U);
  EXPECT_EQ(store_->complete_all(batch, "token-b", clock_.now()), 1U);
  for (const std::string& id : ids) {
    const auto row = store_->find(id);
    ASSERT_TRUE(row.has_value());
    EXPECT_EQ(row->status, OutboxStatus::kDone) << id;
  }
}

TEST_P(OutboxRelayTest, MarksExactlyTheConfirmedAndParksARefusalAtOnce) {
  InProcessTransport routed(100, {}, {.unroutable = {"nowhere"}, .max_message_bytes = 64});
  Relay relay(*store_, routed, RelayOptions(test_settings()), clock_);
  const std::string fits = stage({.event_type = "OrderPlaced", .payload = "{}"});
  const std::string unroutable =
      stage({.event_type = "OrderPlaced", .payload = "{}", .destination = "nowhere"});
  const std::string too_big =
      stage({.event_type = "OrderPlaced", .payload = std::string(100, 'x')});

  const RelayPass pass = relay.run_once();
  EXPECT_EQ(pass.claimed, 3U);
  EXPECT_EQ(pass.published, 1U);
  EXPECT_EQ(pass.retried, 1U);
  EXPECT_EQ(pass.parked, 1U);
  EXPECT_EQ(store_->find(fits)->status, OutboxStatus::kDone);
  const auto retried = store_->find(unroutable).value();
  EXPECT_EQ(retried.status, OutboxStatus::kPending);
  EXPECT_EQ(retried.last_error.value_or("").rfind("unroutable: ", 0), 0U) << *retried.last_error;
  EXPECT_NE(retried.last_error->find("'nowhere'"), std::string::npos);
  const auto parked = store_->find(too_big).value();
  EXPECT_EQ(parked.status, OutboxStatus::kParked);
  EXPECT_EQ(parked.attempts, 1);  // parked at once, not after max_attempts
  EXPECT_NE(parked.last_error.value_or("").find("refused for good"), std::string::npos);
  EXPECT_NE(parked.last_error->find("over the limit of 64 bytes"), std::string::npos);
  EXPECT_EQ(drain(routed), std::vector<std::string>{fits});
}

TEST_P(OutboxRelayTest, PublishesTheRouteOfEachMessage) {
  const std::string id = stage({.event_type = "OrderPlaced",
                                .payload = "{}",
                                .destination = "orders",
                                .ordering_key = "order-7",
                                .headers = {{"x-region", "eu"}}});
  const std::string by_type = stage({.event_type = "OrderPlaced", .payload = "{}"});
  EXPECT_EQ(relay_->run_once().published, 2U);
  auto subscription = transport_.subscribe({.prefetch = 2});
  const auto routed = subscription.next(std::chrono::milliseconds(0)).value();
  EXPECT_EQ(routed.message.envelope.message_id, id);
  EXPECT_EQ(routed.message.destination, "orders");
  EXPECT_EQ(routed.message.ordering_key, "order-7");
  EXPECT_EQ(routed.message.headers, (std::vector<MessageHeader>{{"x-region", "eu"}}));
  const auto defaulted = subscription.next(std::chrono::milliseconds(0)).value();
  EXPECT_EQ(defaulted.message.envelope.message_id, by_type);
  EXPECT_EQ(defaulted.message.destination, "OrderPlaced");  // the default route
}

INSTANTIATE_TEST_SUITE_P(AllProviders, OutboxRelayTest, ::testing::ValuesIn(all_outbox_providers()),
                         outbox_provider_name);

}  // namespace
}  // namespace docket::conformance
