// dispatch_batch on the Firestore emulator, counted in requests: a batch is segmented
// (UnitOfWork::defer_segments), so its dedup documents are read with one batchGet (100
// ids a request) and its messages committed with one commit per unit of at most 500
// writes. A message recorded already is skipped without its handler running, and a
// concurrent delivery that creates a dedup document between the read and the commit
// refuses the commit, which the dispatcher runs again: that message a duplicate, every
// other one processed once.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "docket/tenant.h"
#include "firestore_inbox_fixture.h"
#include "providers/kit/http/request_count.h"

namespace docket::firestore {
namespace {

class FirestoreInboxBatchTest : public FirestoreInboxTest {
 protected:
  // A dispatcher whose handler creates one order document per message, named by its
  // id, and counts its runs per message id.
  InboxDispatcher counting_dispatcher() {
    return dispatcher([this](const Envelope& envelope, Transaction& tx) {
      ++runs_[envelope.message_id];
      tx.create(orders_, envelope.message_id, payload("x"));
    });
  }

  static std::vector<Envelope> notes(int from, int to, int step = 1) {
    std::vector<Envelope> batch;
    for (int i = from; i < to; i += step) {
      batch.push_back(note("m-" + std::to_string(i)));
    }
    return batch;
  }

  // The requests docket sends while `dispatch` runs (every HTTP request of docket's
  // clients in this process: the test's own reads are outside it).
  template <typename F>
  static std::uint64_t requests_of(F&& dispatch) {
    const std::uint64_t before = kit::http::docket_requests().load();
    dispatch();
    return kit::http::docket_requests().load() - before;
  }

  void warm_up(const InboxDispatcher& inbox) {
    ASSERT_EQ(inbox.dispatch(note("warm-up")), DispatchOutcome::kProcessed);
    runs_.clear();
  }

  std::map<std::string, int> runs_;
};

TEST_F(FirestoreInboxBatchTest, FortyNewMessagesAreOneBatchGetAndOneCommit) {
  const auto inbox = counting_dispatcher();
  warm_up(inbox);
  std::vector<BatchItemResult> results;
  EXPECT_EQ(requests_of([&] { results = inbox.dispatch_batch(notes(0, 40)); }), 2u)
      << "one batchGet of the 40 dedup documents, one commit of 80 writes";
  ASSERT_EQ(results.size(), 40u);
  for (const BatchItemResult& result : results) {
    EXPECT_EQ(result.outcome, DispatchOutcome::kProcessed) << result.message_id;
    EXPECT_EQ(runs_[result.message_id], 1) << result.message_id;
  }
  EXPECT_EQ(orders(), 41u);
  EXPECT_EQ(dedup_documents(), 41u);
}

TEST_F(FirestoreInboxBatchTest, RecordedMessagesOfABatchAreSkippedWithoutTheirHandlers) {
  const auto inbox = counting_dispatcher();
  warm_up(inbox);
  ASSERT_EQ(inbox.dispatch_batch(notes(0, 100, 2)).size(), 50u);  // the even ones
  runs_.clear();
  std::vector<BatchItemResult> results;
  EXPECT_EQ(requests_of([&] { results = inbox.dispatch_batch(notes(0, 100)); }), 2u)
      << "one batchGet of 100 ids, one commit of the 50 new messages";
  ASSERT_EQ(results.size(), 100u);
  for (int i = 0; i < 100; ++i) {
    const BatchItemResult& result = results[static_cast<std::size_t>(i)];
    EXPECT_EQ(result.message_id, "m-" + std::to_string(i));
    EXPECT_EQ(result.outcome,
              i % 2 == 0 ? DispatchOutcome::kSkippedDuplicate : DispatchOutcome::kProcessed)
        << result.message_id;
    EXPECT_EQ(runs_[result.message_id], i % 2 == 0 ? 0 : 1) << result.message_id;
  }
  EXPECT_EQ(orders(), 101u);
  EXPECT_EQ(dedup_documents(), 101u);
}

TEST_F(FirestoreInboxBatchTest, ABatchOfMoreThanAHundredIdsReadsThemAHundredAtATime) {
  const auto inbox = counting_dispatcher();
  warm_up(inbox);
  std::vector<BatchItemResult> results;
  EXPECT_EQ(requests_of([&] { results = inbox.dispatch_batch(notes(0, 250)); }), 4u)
      << "three batchGets (100, 100, 50 ids), one commit of 500 writes";
  ASSERT_EQ(results.size(), 250u);
  for (const BatchItemResult& result : results) {
    EXPECT_EQ(result.outcome, DispatchOutcome::kProcessed) << result.message_id;
  }
  EXPECT_EQ(orders(), 251u);
}

TEST_F(FirestoreInboxBatchTest, AMessageRepeatedInABatchIsADuplicateWithoutARequest) {
  const auto inbox = counting_dispatcher();
  warm_up(inbox);
  const std::vector<Envelope> batch = {note("a"), note("b"), note("a")};
  std::vector<BatchItemResult> results;
  EXPECT_EQ(requests_of([&] { results = inbox.dispatch_batch(batch); }), 2u)
      << "the repeat is its first delivery's duplicate, held back with it: no read";
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(results[0].outcome, DispatchOutcome::kProcessed);
  EXPECT_EQ(results[1].outcome, DispatchOutcome::kProcessed);
  EXPECT_EQ(results[2].outcome, DispatchOutcome::kSkippedDuplicate);
  EXPECT_EQ(runs_["a"], 1);
  EXPECT_EQ(orders(), 3u);
}

TEST_F(FirestoreInboxBatchTest, AKeyCommittedAfterThePreCheckIsADuplicateAndTheRestCommitOnce) {
  // A concurrent delivery of m-7 commits through a store of its own while the batch's
  // unit runs m-7's handler: after the batchGet found every id free, before the commit.
  const auto other_store = open_inbox_store(collections_.url(), clock_);
  bool delivered_concurrently = false;
  const auto inbox = dispatcher([&](const Envelope& envelope, Transaction& tx) {
    ++runs_[envelope.message_id];
    if (envelope.message_id == "m-7" && !delivered_concurrently) {
      delivered_concurrently = true;
      auto unit = other_store->begin();
      ASSERT_TRUE(unit->try_record(
          InboxRecord{.key = {std::string(TenantId::untenanted().value()), "billing", "m-7"},
                      .event_type = "note",
                      .occurred_at = envelope.occurred_at,
                      .source = std::nullopt,
                      .causation_id = std::nullopt,
                      .correlation_id = std::nullopt}));
      unit->commit();
    }
    tx.create(orders_, envelope.message_id, payload("x"));
  });
  const std::vector<BatchItemResult> results = inbox.dispatch_batch(notes(0, 20));
  ASSERT_TRUE(delivered_concurrently);
  ASSERT_EQ(results.size(), 20u);
  for (const BatchItemResult& result : results) {
    EXPECT_EQ(result.outcome, result.message_id == "m-7" ? DispatchOutcome::kSkippedDuplicate
                                                         : DispatchOutcome::kProcessed)
        << result.message_id;
    EXPECT_EQ(result.error, nullptr) << result.message_id;
  }
  EXPECT_EQ(runs_["m-7"], 1) << "the rerun's pre-check finds m-7 recorded";
  EXPECT_EQ(runs_["m-8"], 2) << "the refused commit wrote nothing; the rerun did";
  EXPECT_EQ(orders(), 19u) << "one order per message the batch processed, none for m-7";
  EXPECT_EQ(dedup_documents(), 20u);
}

}  // namespace
}  // namespace docket::firestore
