// HandlerContext::after_commit on every inbox provider: an action runs once its
// message committed, in the order given, and never for a message that rolled back
// (a handler that threw, in a batch also while the rest committed) or was skipped as a
// duplicate; an action that throws leaves its message processed and says so.
#include <stdexcept>
#include <string>
#include <vector>

#include "suite.h"

namespace docket::conformance {
namespace {

class AfterCommitTest : public InboxConformance {
 protected:
  // A dispatcher whose handler asks for two actions, then throws for ids in `refused`.
  InboxDispatcher recording(std::vector<std::string> refused = {}) {
    return dispatcher("billing", [this, refused](const Ping&, HandlerContext& ctx) {
      const std::string id = ctx.envelope().message_id;
      ctx.after_commit([this, id] {
        ran_.push_back(id + ":first");
        // Committed by now: the message's dedup row is visible to a fresh read.
        committed_when_run_.push_back(
            store_->is_recorded(DedupKey{"__untenanted__", "billing", id}));
      });
      ctx.after_commit([this, id] { ran_.push_back(id + ":second"); });
      for (const std::string& r : refused) {
        if (r == id) {
          throw std::runtime_error("refused " + id);
        }
      }
    });
  }

  std::vector<std::string> ran_;
  std::vector<bool> committed_when_run_;
};

TEST_P(AfterCommitTest, ActionsRunAfterTheCommitInOrderAndNeverForARollback) {
  const auto inbox = recording({"m-2"});
  EXPECT_EQ(inbox.dispatch(ping("m-1")), DispatchOutcome::kProcessed);
  EXPECT_EQ(ran_, (std::vector<std::string>{"m-1:first", "m-1:second"}));
  EXPECT_EQ(committed_when_run_, std::vector<bool>{true});
  EXPECT_THROW(inbox.dispatch(ping("m-2")), std::runtime_error);
  EXPECT_EQ(inbox.dispatch(ping("m-1")), DispatchOutcome::kSkippedDuplicate);
  EXPECT_EQ(ran_.size(), 2U) << "neither the rolled back message nor the duplicate ran any";
}

TEST_P(AfterCommitTest, InABatchOnlyTheCommittedMessagesActionsRun) {
  const auto inbox = recording({"m-1"});
  const std::vector<Envelope> batch{ping("m-0"), ping("m-1"), ping("m-2"), ping("m-0")};
  const auto results = inbox.dispatch_batch(batch);
  ASSERT_EQ(results.size(), 4U);
  EXPECT_FALSE(results[1].ok());
  EXPECT_EQ(ran_, (std::vector<std::string>{"m-0:first", "m-0:second", "m-2:first", "m-2:second"}));
  EXPECT_EQ(committed_when_run_, (std::vector<bool>{true, true}));
}

TEST_P(AfterCommitTest, AnActionThatThrowsLeavesItsMessageProcessedAndSaysSo) {
  const auto inbox = dispatcher("billing", [](const Ping&, HandlerContext& ctx) {
    ctx.after_commit([] { throw std::runtime_error("after-commit work failed"); });
  });
  EXPECT_THROW(inbox.dispatch(ping("m-1")), std::runtime_error);
  EXPECT_EQ(dedup_rows(), 1) << "committed before the action ran";
  EXPECT_EQ(inbox.dispatch(ping("m-1")), DispatchOutcome::kSkippedDuplicate);

  const auto results = inbox.dispatch_batch(std::vector<Envelope>{ping("m-2"), ping("m-3")});
  ASSERT_EQ(results.size(), 2U);
  for (const BatchItemResult& result : results) {
    EXPECT_FALSE(result.ok()) << result.message_id;
  }
  EXPECT_EQ(dedup_rows(), 3) << "both committed: their redeliveries are duplicates";
}

INSTANTIATE_TEST_SUITE_P(AllProviders, AfterCommitTest, ::testing::ValuesIn(all_providers()),
                         provider_name);

}  // namespace
}  // namespace docket::conformance
