// The observer's hooks (docket/core/observer.h) on the memory and SQLite providers,
// through a RecordingObserver: the dispatcher's and the relay's begin/end pairs (one end
// a begin, the same message, the trace context as stored) and outcomes, the claim
// runner's transitions, the event store's appends and conflicts; and an observer that
// throws from every hook changing no outcome.
#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "docket/core/clock.h"
#include "docket/core/tenant.h"
#include "docket/eventsourcing/event_store.h"
#include "docket/inbox/claim_runner.h"
#include "docket/inbox/inbox_dispatcher.h"
#include "docket/outbox/outbox.h"
#include "docket/outbox/relay.h"
#include "docket/sagas/saga_store.h"
#include "docket/stores/open_store.h"
#include "docket/transports/in_process_transport.h"
#include "observability/recording_observer.h"
#include "support/unique_name.h"

namespace docket::testing {
namespace observer_hooks_test {

constexpr const char* kTraceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
constexpr const char* kTracestate = "vendor=opaque";

// A store URL of the provider under test, fresh for each test: memory stores are
// private to their object; SQLite's is a new file, removed with the fixture.
struct ProviderCase {
  std::string name;
  bool file = false;
};

Envelope envelope(const std::string& id, const std::string& type) {
  return Envelope{.message_id = id,
                  .event_type = type,
                  .payload = "{}",
                  .traceparent = kTraceparent,
                  .tracestate = kTracestate};
}

HandlerRegistry handlers() {
  HandlerRegistry registry;
  registry.on<nlohmann::json>("Ok", [](const nlohmann::json&, HandlerContext&) {});
  registry.on<nlohmann::json>("Boom", [](const nlohmann::json&, HandlerContext&) {
    throw std::runtime_error("the handler fails");
  });
  return registry;
}

class ObserverHooksTest : public ::testing::TestWithParam<ProviderCase> {
 protected:
  void SetUp() override {
    if (GetParam().file) {
      path_ = (std::filesystem::temp_directory_path() /
               (test_support::unique_name("docket-observer") + ".db"))
                  .string();
      url_ = "sqlite://" + path_;
    } else {
      url_ = "memory:";
    }
  }
  void TearDown() override {
    if (!path_.empty()) {
      for (const char* suffix : {"", "-wal", "-shm"}) {
        std::filesystem::remove(path_ + suffix);
      }
    }
  }

  // Every begin has exactly one end with its token, for the same message.
  static void expect_paired(const RecordingObserver& observer) {
    EXPECT_EQ(observer.unmatched_ends(), 0);
    for (const RecordedSpan& span : observer.spans()) {
      EXPECT_EQ(span.ends, 1) << span.begin.message_id;
      ASSERT_TRUE(span.end_start.has_value()) << span.begin.message_id;
      EXPECT_EQ(span.end_start->message_id, span.begin.message_id);
      EXPECT_EQ(span.end_start->traceparent, span.begin.traceparent);
    }
  }

  std::string url_;
  std::string path_;
};

TEST_P(ObserverHooksTest, DispatchSpansCarryTheTraceContextAndEndWithTheOutcome) {
  auto observer = std::make_shared<RecordingObserver>();
  auto store = open_inbox_store(url_);
  const InboxDispatcher inbox(
      *store, InboxOptions("billing", DedupCheck::kBeforeHandlers, observer), handlers());
  const TenantScope tenant{TenantId("acme")};
  EXPECT_EQ(inbox.dispatch(envelope("m-1", "Ok")), DispatchOutcome::kProcessed);
  EXPECT_EQ(inbox.dispatch(envelope("m-1", "Ok")), DispatchOutcome::kSkippedDuplicate);
  EXPECT_THROW(inbox.dispatch(envelope("m-2", "Boom")), std::runtime_error);

  const std::vector<RecordedSpan> spans = observer->spans();
  ASSERT_EQ(spans.size(), 3U);
  expect_paired(*observer);
  const MessageOutcome expected[] = {MessageOutcome::kProcessed, MessageOutcome::kSkippedDuplicate,
                                     MessageOutcome::kFailed};
  for (std::size_t i = 0; i < spans.size(); ++i) {
    EXPECT_EQ(spans[i].begin.role, MessageRole::kProcess);
    EXPECT_EQ(spans[i].begin.consumer_or_destination, "billing");
    EXPECT_EQ(spans[i].begin.tenant, "acme");
    EXPECT_EQ(spans[i].begin.traceparent, kTraceparent);
    EXPECT_EQ(spans[i].begin.tracestate, kTracestate);
    EXPECT_FALSE(spans[i].begin.batched);
    EXPECT_EQ(spans[i].outcome, expected[i]) << i;
    EXPECT_GE(spans[i].duration.count(), 0);
  }
  EXPECT_EQ(spans[2].begin.event_type, "Boom");
  EXPECT_EQ(spans[2].error, "the handler fails");
}

TEST_P(ObserverHooksTest, BatchSpansEndWithEachMessagesResultAndAbandonedAfterAStop) {
  auto observer = std::make_shared<RecordingObserver>();
  auto store = open_inbox_store(url_);
  const InboxDispatcher inbox(
      *store, InboxOptions("billing", DedupCheck::kBeforeHandlers, observer), handlers());
  ASSERT_EQ(inbox.dispatch(envelope("done", "Ok")), DispatchOutcome::kProcessed);
  const std::vector<Envelope> batch{envelope("b-1", "Ok"), envelope("b-2", "Boom"),
                                    envelope("done", "Ok"), Envelope{/*invalid: no id*/}};
  const auto results = inbox.dispatch_batch(batch);
  ASSERT_EQ(results.size(), 4U);
  const std::vector<Envelope> stopped{envelope("s-1", "Ok"), envelope("s-2", "Boom"),
                                      envelope("s-3", "Ok")};
  EXPECT_EQ(inbox.dispatch_batch(stopped, AfterBatchFailure::kStop).size(), 2U);

  std::vector<RecordedSpan> spans = observer->spans();
  expect_paired(*observer);
  // The single dispatch, three valid messages of the first batch (the invalid one is
  // not observed), three of the second.
  ASSERT_EQ(spans.size(), 7U);
  std::map<std::string, MessageOutcome> outcomes;
  for (std::size_t i = 1; i < spans.size(); ++i) {
    EXPECT_TRUE(spans[i].begin.batched);
    outcomes[spans[i].begin.message_id + (i > 3 ? "/stop" : "")] = *spans[i].outcome;
  }
  EXPECT_EQ(outcomes["b-1"], MessageOutcome::kProcessed);
  EXPECT_EQ(outcomes["b-2"], MessageOutcome::kFailed);
  EXPECT_EQ(outcomes["done"], MessageOutcome::kSkippedDuplicate);
  EXPECT_EQ(outcomes["s-1/stop"], MessageOutcome::kProcessed);
  EXPECT_EQ(outcomes["s-2/stop"], MessageOutcome::kFailed);
  EXPECT_EQ(outcomes["s-3/stop"], MessageOutcome::kAbandoned);
}

TEST_P(ObserverHooksTest, RelaySpansCarryTheStoredTraceContextAndEndConfirmedRetriedOrParked) {
  ManualClock clock{SystemClock::instance().now()};
  auto observer = std::make_shared<RecordingObserver>();
  auto store = open_outbox_store(url_, clock);
  {
    const TenantScope tenant{TenantId("acme")};
    const Outbox outbox(*store, clock);
    auto unit = store->begin();
    for (const char* destination : {"orders", "nowhere"}) {
      outbox.stage(unit->handler_transaction(), {.event_type = "OrderPlaced",
                                                 .payload = "{}",
                                                 .traceparent = kTraceparent,
                                                 .tracestate = kTracestate,
                                                 .destination = destination});
    }
    unit->commit();
  }
  InProcessTransport transport(100, {}, {.unroutable = {"nowhere"}});
  Relay relay(*store, transport,
              RelayOptions({.max_attempts = 2,
                            .backoff_base = std::chrono::milliseconds(10),
                            .backoff_cap = std::chrono::milliseconds(10)},
                           observer),
              clock);
  EXPECT_EQ(relay.run_once().published, 1U);
  clock.advance(std::chrono::seconds(1));
  EXPECT_EQ(relay.drain().parked, 1U);

  const std::vector<RecordedSpan> spans = observer->spans();
  expect_paired(*observer);
  ASSERT_EQ(spans.size(), 3U);
  for (const RecordedSpan& span : spans) {
    EXPECT_EQ(span.begin.role, MessageRole::kPublish);
    EXPECT_EQ(span.begin.tenant, "acme");
    EXPECT_EQ(span.begin.event_type, "OrderPlaced");
    EXPECT_EQ(span.begin.traceparent, kTraceparent);
    EXPECT_EQ(span.begin.tracestate, kTracestate);
  }
  std::vector<std::string> seen;
  for (const RecordedSpan& span : spans) {
    seen.push_back(span.begin.consumer_or_destination + " " + std::to_string(span.begin.attempt) +
                   " " + std::string(to_string(*span.outcome)));
  }
  std::sort(seen.begin(), seen.end());
  EXPECT_EQ(seen, (std::vector<std::string>{"nowhere 1 retry_scheduled", "nowhere 2 parked",
                                            "orders 1 confirmed"}));
  for (const RecordedSpan& span : spans) {
    if (span.begin.consumer_or_destination == "nowhere") {
      EXPECT_NE(span.error.find("unroutable"), std::string::npos) << span.error;
    }
  }
}

TEST_P(ObserverHooksTest, ClaimRunnerReportsEveryTransition) {
  auto observer = std::make_shared<RecordingObserver>();
  auto store = open_claim_inbox_store(url_);
  ClaimRunnerSettings settings;
  settings.observer = observer;
  const ClaimRunner runner(*store, ClaimRunnerOptions("mailer", settings));
  const TenantScope tenant{TenantId("acme")};
  EXPECT_EQ(runner.run("c-1", [] {}), ClaimRunOutcome::kProcessed);
  EXPECT_EQ(runner.run("c-1", [] {}), ClaimRunOutcome::kAlreadyProcessed);
  EXPECT_THROW(runner.run("c-2", [] { throw std::runtime_error("smtp down"); }),
               std::runtime_error);
  const std::vector<std::string_view> batch{"c-1", "c-3", "c-4"};
  const auto runs = runner.run_batch(batch, [](std::size_t index) {
    if (index == 2) {
      throw std::runtime_error("smtp down");
    }
  });
  ASSERT_EQ(runs.size(), 3U);

  std::vector<std::string> seen;
  for (const RecordedClaim& claim : observer->claims()) {
    EXPECT_EQ(claim.handler_type, "mailer");
    EXPECT_EQ(claim.tenant, "acme");
    seen.push_back(claim.message_id + " " + std::string(to_string(claim.transition)));
  }
  EXPECT_EQ(seen, (std::vector<std::string>{"c-1 claimed", "c-1 processed", "c-1 already_processed",
                                            "c-2 claimed", "c-2 failed", "c-1 already_processed",
                                            "c-3 claimed", "c-4 claimed", "c-4 failed",
                                            "c-3 processed"}));
}

TEST_P(ObserverHooksTest, EventStoreReportsAppendsAndConflicts) {
  auto observer = std::make_shared<RecordingObserver>();
  auto store = open_event_store(url_);
  store->set_observer(observer);
  const StreamId stream(TenantId("acme"), "account", "A-1");
  EXPECT_TRUE(store
                  ->append(stream, ExpectedVersion::no_stream(),
                           {{.type = "opened"}, {.type = "deposited"}})
                  .succeeded());
  EXPECT_TRUE(
      store->append(stream, ExpectedVersion::no_stream(), {{.type = "opened"}}).is_conflict());
  EXPECT_THROW(store->append(stream, ExpectedVersion::any(), std::span<const NewEvent>()),
               InvalidInputError);

  const std::vector<RecordedAppend> appends = observer->appends();
  ASSERT_EQ(appends.size(), 2U) << "invalid input is not observed";
  EXPECT_EQ(appends[0].provider, std::string(store->provider_name()));
  EXPECT_EQ(appends[0].aggregate_type, "account");
  EXPECT_EQ(appends[0].tenant, "acme");
  EXPECT_EQ(appends[0].events, 2U);
  EXPECT_FALSE(appends[0].conflict);
  EXPECT_FALSE(appends[0].in_transaction);
  EXPECT_TRUE(appends[1].conflict);
}

TEST_P(ObserverHooksTest, SagaStoreReportsConflictsAlone) {
  auto observer = std::make_shared<RecordingObserver>();
  auto store = open_saga_store(url_);
  store->set_observer(observer);
  const SagaId saga(TenantId("acme"), "shipping", "S-1");
  ASSERT_FALSE(store->save(saga, kNewSaga, "{}").is_conflict());
  ASSERT_FALSE(store->save(saga, 0, "{\"step\":1}").is_conflict());
  EXPECT_TRUE(store->save(saga, 0, "{\"step\":2}").is_conflict());  // another step saved 1

  const std::vector<RecordedSagaConflict> conflicts = observer->saga_conflicts();
  ASSERT_EQ(conflicts.size(), 1U) << "only the conflict is observed";
  EXPECT_EQ(conflicts[0].saga_type, "shipping");
  EXPECT_EQ(conflicts[0].tenant, "acme");
  EXPECT_EQ(conflicts[0].expected_version, 0);
  EXPECT_EQ(conflicts[0].actual_version, 1);
}

TEST_P(ObserverHooksTest, AnObserverThatThrowsChangesNoOutcome) {
  auto observer = std::make_shared<RecordingObserver>(/*throw_from_hooks=*/true);
  auto inbox_store = open_inbox_store(url_);
  const InboxDispatcher inbox(
      *inbox_store, InboxOptions("billing", DedupCheck::kBeforeHandlers, observer), handlers());
  EXPECT_EQ(inbox.dispatch(envelope("m-1", "Ok")), DispatchOutcome::kProcessed);
  EXPECT_EQ(inbox.dispatch(envelope("m-1", "Ok")), DispatchOutcome::kSkippedDuplicate);
  try {
    inbox.dispatch(envelope("m-2", "Boom"));
    ADD_FAILURE() << "the handler's exception was swallowed";
  } catch (const std::runtime_error& error) {
    EXPECT_STREQ(error.what(), "the handler fails") << "the handler's own exception propagates";
  }
  const std::vector<Envelope> batch{envelope("b-1", "Ok"), envelope("m-1", "Ok")};
  const auto results = inbox.dispatch_batch(batch);
  ASSERT_EQ(results.size(), 2U);
  EXPECT_EQ(results[0].outcome, DispatchOutcome::kProcessed);
  EXPECT_EQ(results[1].outcome, DispatchOutcome::kSkippedDuplicate);
  // Every begin threw, so returned no token: each span still ended once, with token 0.
  EXPECT_EQ(observer->spans().size(), 5U);
  EXPECT_EQ(observer->unmatched_ends(), 5);

  auto outbox_store = open_outbox_store(url_);
  {
    const Outbox outbox(*outbox_store);
    auto unit = outbox_store->begin();
    outbox.stage(unit->handler_transaction(), {.event_type = "OrderPlaced", .payload = "{}"});
    unit->commit();
  }
  InProcessTransport transport(100);
  Relay relay(*outbox_store, transport, RelayOptions({}, observer));
  EXPECT_EQ(relay.run_once().published, 1U);
  EXPECT_EQ(transport.stats().published, 1U);

  auto claims = open_claim_inbox_store(url_);
  ClaimRunnerSettings settings;
  settings.observer = observer;
  const ClaimRunner runner(*claims, ClaimRunnerOptions("mailer", settings));
  EXPECT_EQ(runner.run("c-1", [] {}), ClaimRunOutcome::kProcessed);
  EXPECT_EQ(runner.run("c-1", [] {}), ClaimRunOutcome::kAlreadyProcessed);

  auto events = open_event_store(url_);
  events->set_observer(observer);
  const StreamId stream(TenantId("acme"), "account", "A-1");
  EXPECT_TRUE(
      events->append(stream, ExpectedVersion::no_stream(), {{.type = "opened"}}).succeeded());
  EXPECT_TRUE(
      events->append(stream, ExpectedVersion::no_stream(), {{.type = "opened"}}).is_conflict());
  EXPECT_EQ(events->load(stream).size(), 1U);
  EXPECT_EQ(observer->appends().size(), 2U) << "the observer was called, and threw";
}

INSTANTIATE_TEST_SUITE_P(Providers, ObserverHooksTest,
                         ::testing::Values(ProviderCase{"memory", false},
                                           ProviderCase{"sqlite", true}),
                         [](const auto& test_info) { return test_info.param.name; });

}  // namespace observer_hooks_test
}  // namespace docket::testing
