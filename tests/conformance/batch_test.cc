// dispatch_batch: one transaction, a savepoint per message.
#include <stdexcept>

#include "docket/inbox/inbox_errors.h"
#include "suite.h"

namespace docket::conformance {
namespace {

class BatchTest : public InboxConformance {};

std::vector<Envelope> pings(int count) {
  std::vector<Envelope> envelopes;
  for (int i = 0; i < count; ++i) {
    envelopes.push_back(ping("m-" + std::to_string(i)));
  }
  return envelopes;
}

TEST_P(BatchTest, FailingMessagesRollBackAloneAndTheRestCommit) {
  const auto inbox = dispatcher("billing", [](const Ping&, HandlerContext& ctx) {
    const auto& id = ctx.envelope().message_id;
    if (id == "m-10" || id == "m-50") {
      throw std::runtime_error("refused " + id);
    }
  });
  const auto envelopes = pings(100);
  const auto results = inbox.dispatch_batch(envelopes);
  ASSERT_EQ(results.size(), 100u);
  std::vector<std::string> failed;
  for (std::size_t i = 0; i < results.size(); ++i) {
    EXPECT_EQ(results[i].message_id, envelopes[i].message_id);
    if (results[i].ok()) {
      EXPECT_EQ(*results[i].outcome, DispatchOutcome::kProcessed);
      EXPECT_EQ(results[i].error, nullptr);
      continue;
    }
    failed.push_back(results[i].message_id);
    try {
      std::rethrow_exception(results[i].error);
    } catch (const std::runtime_error& e) {
      EXPECT_EQ(std::string(e.what()), "refused " + results[i].message_id);
    }
  }
  EXPECT_EQ(failed, (std::vector<std::string>{"m-10", "m-50"}));
  EXPECT_EQ(dedup_rows(), 98);
  EXPECT_EQ(effects(), 98);

  const auto again = inbox.dispatch_batch(envelopes);
  int skipped = 0;
  for (const auto& result : again) {
    skipped += result.ok() && *result.outcome == DispatchOutcome::kSkippedDuplicate ? 1 : 0;
  }
  EXPECT_EQ(skipped, 98);
  EXPECT_EQ(effects(), 98);
}

TEST_P(BatchTest, DuplicateWithinOneBatchAndInvalidEnvelopeAreReportedAlone) {
  const auto inbox = dispatcher("billing");
  std::vector<Envelope> envelopes{ping("a"), ping("a"), ping(""), ping("b")};
  envelopes.push_back(ping("c"));
  envelopes.back().event_type = "unknown";
  const auto results = inbox.dispatch_batch(envelopes);
  ASSERT_EQ(results.size(), 5u);
  EXPECT_EQ(results[0].outcome, DispatchOutcome::kProcessed);
  EXPECT_EQ(results[1].outcome, DispatchOutcome::kSkippedDuplicate);
  EXPECT_FALSE(results[2].ok());
  EXPECT_THROW(std::rethrow_exception(results[2].error), InvalidInputError);
  EXPECT_EQ(results[3].outcome, DispatchOutcome::kProcessed);
  EXPECT_FALSE(results[4].ok());
  EXPECT_EQ(dedup_rows(), 2);
  EXPECT_EQ(effects(), 2);
}

TEST_P(BatchTest, HandlersOwnUniqueViolationFailsOnlyItsMessage) {
  HandlerRegistry handlers;
  fixture_->on_ping(handlers, [](const Ping&, HandlerContext&) { return "same"; });
  const InboxDispatcher inbox(*store_, InboxOptions("billing"), std::move(handlers));
  const std::vector<Envelope> envelopes{ping("m-1"), ping("m-2")};
  const auto results = inbox.dispatch_batch(envelopes);
  EXPECT_EQ(results[0].outcome, DispatchOutcome::kProcessed);
  ASSERT_FALSE(results[1].ok());
  EXPECT_THROW(std::rethrow_exception(results[1].error), UniqueViolationError);
  EXPECT_EQ(dedup_rows(), 1);
  EXPECT_EQ(effects(), 1);
}

// A key committed before the batch: an interactive transaction finds it at the insert,
// a store that buffers its writes only at commit, which then fails the whole unit; the
// dispatcher runs that unit's messages again one to a unit, so only the message whose
// insert was refused fails, and a batch never runs the same failing unit forever.
TEST_P(BatchTest, AHandlersInsertOfAKeyCommittedBeforeFailsOnlyItsMessage) {
  HandlerRegistry handlers;
  fixture_->on_ping(handlers, [](const Ping&, HandlerContext& ctx) {
    const std::string& id = ctx.envelope().message_id;
    return id == "m-0" || id == "m-2" || id == "m-6" ? std::string("taken") : id;
  });
  const InboxDispatcher inbox(*store_, InboxOptions("billing"), std::move(handlers));
  ASSERT_EQ(inbox.dispatch(ping("m-0")), DispatchOutcome::kProcessed);

  const auto results =
      inbox.dispatch_batch(std::vector<Envelope>{ping("m-1"), ping("m-2"), ping("m-3")});
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(results[0].outcome, DispatchOutcome::kProcessed);
  ASSERT_FALSE(results[1].ok());
  EXPECT_THROW(std::rethrow_exception(results[1].error), UniqueViolationError);
  EXPECT_EQ(results[2].outcome, DispatchOutcome::kProcessed);
  EXPECT_EQ(dedup_rows(), 3);
  EXPECT_EQ(effects(), 3);

  const auto stopped = inbox.dispatch_batch(
      std::vector<Envelope>{ping("m-5"), ping("m-6"), ping("m-7")}, AfterBatchFailure::kStop);
  ASSERT_EQ(stopped.size(), 2u) << "the results end at the failed message";
  EXPECT_EQ(stopped[0].outcome, DispatchOutcome::kProcessed);
  ASSERT_FALSE(stopped[1].ok());
  EXPECT_THROW(std::rethrow_exception(stopped[1].error), UniqueViolationError);
  EXPECT_EQ(dedup_rows(), 4);
  EXPECT_EQ(effects(), 4);
}

TEST_P(BatchTest, StopAfterAFailureLeavesTheLaterMessagesUndispatched) {
  std::vector<std::string> ran;
  const auto inbox = dispatcher("billing", [&](const Ping&, HandlerContext& ctx) {
    ran.push_back(ctx.envelope().message_id);
    if (ctx.envelope().message_id == "m-2") {
      throw std::runtime_error("refused");
    }
  });
  const auto envelopes = pings(5);
  const auto results = inbox.dispatch_batch(envelopes, AfterBatchFailure::kStop);
  ASSERT_EQ(results.size(), 3u) << "the results end at the failed message";
  EXPECT_EQ(results[0].outcome, DispatchOutcome::kProcessed);
  EXPECT_EQ(results[1].outcome, DispatchOutcome::kProcessed);
  EXPECT_FALSE(results[2].ok());
  EXPECT_EQ(results[2].message_id, "m-2");
  EXPECT_EQ(ran, (std::vector<std::string>{"m-0", "m-1", "m-2"}));
  EXPECT_EQ(dedup_rows(), 2);
  EXPECT_EQ(effects(), 2);
}

INSTANTIATE_TEST_SUITE_P(AllProviders, BatchTest, ::testing::ValuesIn(all_providers()),
                         provider_name);

}  // namespace
}  // namespace docket::conformance
