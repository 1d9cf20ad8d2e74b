// UnhandledTypes on every inbox provider: by default a message no handler takes is
// refused and not marked processed; with kMarkProcessed its dedup row alone commits,
// it answers kUnhandled (a redelivery is a duplicate), and in a batch it sits between
// handled messages without disturbing them.
#include "docket/inbox/inbox_errors.h"
#include "suite.h"

namespace docket::conformance {
namespace {

class UnhandledTypesTest : public InboxConformance {
 protected:
  InboxDispatcher marking() {
    HandlerRegistry handlers;
    handlers.on<Ping>(kPingType, [this](const Ping&, HandlerContext&) { ++handled_; });
    return InboxDispatcher(*store_,
                           InboxOptions("billing", DedupCheck::kBeforeHandlers, nullptr,
                                        UnhandledTypes::kMarkProcessed),
                           std::move(handlers));
  }
  static Envelope other(std::string id) {
    Envelope envelope = ping(std::move(id));
    envelope.event_type = "stock-counted";  // no handler takes it
    return envelope;
  }
  bool recorded(std::string_view id) {
    return store_->is_recorded(DedupKey{"__untenanted__", "billing", std::string(id)});
  }

  int handled_ = 0;
};

TEST_P(UnhandledTypesTest, ByDefaultAMessageNoHandlerTakesIsRefusedAndNotMarked) {
  const InboxDispatcher strict = dispatcher("billing");
  EXPECT_THROW(strict.dispatch(other("m-1")), UnhandledEventTypeError);
  EXPECT_FALSE(recorded("m-1"));
}

TEST_P(UnhandledTypesTest, MarkProcessedCommitsTheDedupRowAloneAndSaysSo) {
  const InboxDispatcher inbox = marking();
  EXPECT_EQ(inbox.dispatch(other("m-1")), DispatchOutcome::kUnhandled);
  EXPECT_TRUE(recorded("m-1"));
  EXPECT_EQ(inbox.dispatch(other("m-1")), DispatchOutcome::kSkippedDuplicate);
  EXPECT_EQ(inbox.dispatch(ping("m-2")), DispatchOutcome::kProcessed);
  EXPECT_EQ(handled_, 1);
  EXPECT_EQ(to_string(DispatchOutcome::kUnhandled), "unhandled");
}

TEST_P(UnhandledTypesTest, InABatchUnhandledMessagesSitBetweenHandledOnes) {
  const InboxDispatcher inbox = marking();
  const std::vector<Envelope> batch{ping("m-1"), other("m-2"), ping("m-3"), other("m-2")};
  const auto results = inbox.dispatch_batch(batch);
  ASSERT_EQ(results.size(), 4U);
  EXPECT_EQ(results[0].outcome, DispatchOutcome::kProcessed);
  EXPECT_EQ(results[1].outcome, DispatchOutcome::kUnhandled);
  EXPECT_EQ(results[2].outcome, DispatchOutcome::kProcessed);
  EXPECT_EQ(results[3].outcome, DispatchOutcome::kSkippedDuplicate) << "the repeat in the batch";
  EXPECT_EQ(handled_, 2);
  EXPECT_EQ(dedup_rows(), 3);
  const auto again = inbox.dispatch_batch(std::vector<Envelope>{other("m-2")});
  EXPECT_EQ(again.at(0).outcome, DispatchOutcome::kSkippedDuplicate);
}

INSTANTIATE_TEST_SUITE_P(AllProviders, UnhandledTypesTest, ::testing::ValuesIn(all_providers()),
                         provider_name);

}  // namespace
}  // namespace docket::conformance
