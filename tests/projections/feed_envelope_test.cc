// What the event feed consumer hands its handlers (the envelope of each event, the
// recorded event through current_event), and what it refuses: settings at
// construction, a checkpoint that is not a global position, current_event outside it.
#include <optional>
#include <string>
#include <vector>

#include "docket/core/error.h"
#include "docket/core/message_context.h"
#include "feed_fixture.h"

namespace docket::projection_tests {
namespace {

template <typename Database>
class FeedEnvelope : public FeedFixture<Database> {};

TYPED_TEST_SUITE(FeedEnvelope, FeedJoinDatabases, JoinCaseNames);

constexpr std::string_view kTraceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

TYPED_TEST(FeedEnvelope, HandlersGetTheEventsIdTypeLineageAndTrace) {
  NewEvent traced = deposited(7);
  traced.metadata = EventMetadata{.correlation_id = "order-9",
                                  .causation_id = "command-3",
                                  .trace_context = parse_trace_context(kTraceparent, "congo=t61")};
  traced.occurred_at = Timestamp(std::chrono::seconds(1'700'000'123));
  this->append(this->acme_, "A-1", {traced, deposited(8)});
  std::vector<Envelope> seen;
  std::vector<MessageContext> contexts;
  std::vector<RecordedEvent> current;
  HandlerRegistry handlers;
  handlers.on<Deposited>(kDeposited, [&](const Deposited&, HandlerContext& ctx) {
    seen.push_back(ctx.envelope());
    contexts.push_back(*MessageContextScope::current());
    current.push_back(EventFeedConsumer::current_event(ctx));
  });
  const InboxDispatcher inbox(*this->inbox_store_, InboxOptions("audit"), std::move(handlers));
  EventFeedConsumer consumer(*this->events_, inbox);
  EXPECT_EQ(consumer.run_once().processed, 2u);

  const auto recorded = this->events_->read_all(0, 10).events;
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(current, recorded) << "current_event is the event being handled";
  EXPECT_EQ(seen[0].message_id, recorded[0].event_id.to_string());
  EXPECT_EQ(seen[0].event_type, kDeposited);
  EXPECT_EQ(seen[0].payload, recorded[0].payload);
  EXPECT_EQ(seen[0].occurred_at, Timestamp(std::chrono::seconds(1'700'000'123)));
  EXPECT_EQ(seen[0].correlation_id, "order-9");
  EXPECT_EQ(seen[0].causation_id, "command-3");
  EXPECT_EQ(seen[0].traceparent, kTraceparent);
  EXPECT_EQ(seen[0].tracestate, "congo=t61");
  EXPECT_EQ(contexts[0].trace, parse_trace_context(kTraceparent, "congo=t61"));
  EXPECT_EQ(seen[1].message_id, recorded[1].event_id.to_string());
  EXPECT_EQ(seen[1].correlation_id, std::nullopt) << "empty lineage is absent";
  EXPECT_EQ(seen[1].causation_id, std::nullopt);
  EXPECT_EQ(seen[1].traceparent, "");
  EXPECT_EQ(contexts[1].trace, std::nullopt);
}

TYPED_TEST(FeedEnvelope, CurrentEventOutsideAFeedConsumerIsRefused) {
  this->append(this->acme_, "A-1", {deposited(1)});
  const auto inbox = this->projection();
  const TenantScope scope(this->acme_);
  const Envelope envelope = to_envelope(this->events_->read_all(0, 1).events.at(0));
  try {
    inbox.dispatch(envelope);  // a plain delivery, not through the consumer
    ADD_FAILURE() << "expected ConfigurationError";
  } catch (const ConfigurationError& e) {
    EXPECT_NE(std::string(e.what()).find("EventFeedConsumer"), std::string::npos) << e.what();
  }
  this->expect_read_model({});
}

TYPED_TEST(FeedEnvelope, ACheckpointThatIsNoGlobalPositionIsRefusedAndNothingRuns) {
  this->append(this->acme_, "A-1", {deposited(1)});
  {
    const TenantScope whole_feed(TenantId::untenanted());
    this->inbox_store_->checkpoints().set("balances", "outbox:42");
  }
  const auto inbox = this->projection();
  EventFeedConsumer consumer(*this->events_, inbox);
  try {
    consumer.run_once();
    ADD_FAILURE() << "expected ConfigurationError";
  } catch (const ConfigurationError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("'balances'"), std::string::npos) << what;
    EXPECT_NE(what.find("'outbox:42'"), std::string::npos) << what;
    EXPECT_NE(what.find("its own id"), std::string::npos) << what;
  }
  EXPECT_EQ(this->attempts_, 0);
}

// Settings do not depend on the provider: checked once, on memory stores.
void expect_refused(EventStore& events, const InboxDispatcher& inbox, EventFeedSettings settings,
                    std::string_view mention) {
  try {
    EventFeedConsumer consumer(events, inbox, std::move(settings));
    ADD_FAILURE() << "expected ConfigurationError mentioning " << mention;
  } catch (const ConfigurationError& e) {
    EXPECT_NE(std::string(e.what()).find(mention), std::string::npos) << e.what();
  }
}

TEST(FeedSettings, BadSettingsAreRefusedAtConstruction) {
  const ManualClock clock{Timestamp(std::chrono::seconds(1'800'000'000))};
  const memory::Database db = memory::open_database(clock);
  auto events = memory::open_event_store(db);
  auto store = memory::open_store(db);
  const InboxDispatcher inbox(*store, InboxOptions("balances"), HandlerRegistry());
  expect_refused(*events, inbox, {.batch_size = 0}, "batch_size is 0");
  expect_refused(*events, inbox, {.batch_size = kMaxReadAllLimit + 1}, "batch_size is 10001");
  expect_refused(*events, inbox, {.poll_interval = std::chrono::microseconds(0)},
                 "poll_interval is 0 us");
  expect_refused(
      *events, inbox,
      {.poll_interval = std::chrono::seconds(2), .max_poll_interval = std::chrono::seconds(1)},
      "max_poll_interval is 1000000 us, below poll_interval");
  expect_refused(*events, inbox, {.tenant = TenantId::untenanted()}, "name a real tenant");
  EXPECT_NO_THROW(EventFeedConsumer(*events, inbox, {.batch_size = kMaxReadAllLimit}));
}

}  // namespace
}  // namespace docket::projection_tests
