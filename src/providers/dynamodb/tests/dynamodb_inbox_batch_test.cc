// dispatch_batch on DynamoDB Local, counted in requests: a batch is segmented
// (UnitOfWork::defer_segments), so its dedup items are read with one consistent
// BatchGetItem and its messages committed with one TransactWriteItems per unit of at
// most 100 actions. A message recorded already is skipped without its handler running,
// and a concurrent delivery that commits a key between the read and the commit cancels
// the transaction, which the dispatcher runs again: that message a duplicate, every
// other one processed once.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "docket/tenant.h"
#include "dynamodb_inbox_fixture.h"
#include "providers/kit/http/request_count.h"

namespace docket::dynamodb {
namespace {

class DynamoDbInboxBatchTest : public DynamoDbInboxTest {
 protected:
  // A dispatcher whose handler puts one order item per message, keyed by its id, and
  // counts its runs per message id.
  InboxDispatcher counting_dispatcher() {
    return dispatcher([this](const Envelope& envelope, Transaction& tx) {
      ++runs_[envelope.message_id];
      tx.put(orders_, order(envelope.message_id));
    });
  }

  static std::vector<Envelope> notes(const std::string& prefix, int from, int to) {
    std::vector<Envelope> batch;
    for (int i = from; i < to; ++i) {
      batch.push_back(note(prefix + std::to_string(i)));
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

  // Dispatches one message first, so that the tables' descriptions are read before a
  // count starts.
  void warm_up(const InboxDispatcher& inbox) {
    ASSERT_EQ(inbox.dispatch(note("warm-up")), DispatchOutcome::kProcessed);
    runs_.clear();
  }

  std::map<std::string, int> runs_;
};

TEST_F(DynamoDbInboxBatchTest, FortyNewMessagesAreOneBatchGetAndOneTransaction) {
  const auto inbox = counting_dispatcher();
  warm_up(inbox);
  const std::vector<Envelope> batch = notes("m-", 0, 40);
  std::vector<BatchItemResult> results;
  EXPECT_EQ(requests_of([&] { results = inbox.dispatch_batch(batch); }), 2u)
      << "one BatchGetItem of the 40 dedup items, one TransactWriteItems of 80 actions";
  ASSERT_EQ(results.size(), 40u);
  for (const BatchItemResult& result : results) {
    EXPECT_EQ(result.outcome, DispatchOutcome::kProcessed) << result.message_id;
    EXPECT_EQ(runs_[result.message_id], 1) << result.message_id;
  }
  EXPECT_EQ(orders(), 41u);
  EXPECT_EQ(dedup_items(), 41u);
}

TEST_F(DynamoDbInboxBatchTest, AHundredNewMessagesSplitIntoTwoTransactionsOfFiftyEach) {
  const auto inbox = counting_dispatcher();
  warm_up(inbox);
  std::vector<BatchItemResult> results;
  EXPECT_EQ(requests_of([&] { results = inbox.dispatch_batch(notes("m-", 0, 100)); }), 4u)
      << "per unit of 50 messages (100 actions): one BatchGetItem, one TransactWriteItems";
  ASSERT_EQ(results.size(), 100u);
  for (const BatchItemResult& result : results) {
    EXPECT_EQ(result.outcome, DispatchOutcome::kProcessed) << result.message_id;
  }
  EXPECT_EQ(runs_.size(), 100u);
  EXPECT_EQ(orders(), 101u);
  EXPECT_EQ(dedup_items(), 101u);
}

TEST_F(DynamoDbInboxBatchTest, RecordedMessagesOfABatchAreSkippedWithoutTheirHandlers) {
  const auto inbox = counting_dispatcher();
  warm_up(inbox);
  // The even ones of 100 are recorded first.
  std::vector<Envelope> evens;
  for (int i = 0; i < 100; i += 2) {
    evens.push_back(note("m-" + std::to_string(i)));
  }
  ASSERT_EQ(inbox.dispatch_batch(evens).size(), 50u);
  runs_.clear();
  std::vector<BatchItemResult> results;
  EXPECT_EQ(requests_of([&] { results = inbox.dispatch_batch(notes("m-", 0, 100)); }), 2u)
      << "one BatchGetItem of 100 keys, one TransactWriteItems of the 50 new messages";
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
  EXPECT_EQ(dedup_items(), 101u);
}

TEST_F(DynamoDbInboxBatchTest, AMessageRepeatedInABatchIsADuplicateWithoutARequest) {
  const auto inbox = counting_dispatcher();
  warm_up(inbox);
  const std::vector<Envelope> batch = {note("a"), note("b"), note("a")};
  std::vector<BatchItemResult> results;
  EXPECT_EQ(requests_of([&] { results = inbox.dispatch_batch(batch); }), 2u)
      << "the repeat is its first delivery's duplicate, held back with it: no GetItem";
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(results[0].outcome, DispatchOutcome::kProcessed);
  EXPECT_EQ(results[1].outcome, DispatchOutcome::kProcessed);
  EXPECT_EQ(results[2].outcome, DispatchOutcome::kSkippedDuplicate);
  EXPECT_EQ(runs_["a"], 1);
  EXPECT_EQ(orders(), 3u);
}

TEST_F(DynamoDbInboxBatchTest, AKeyCommittedAfterThePreCheckIsADuplicateAndTheRestCommitOnce) {
  // A concurrent delivery of m-7 commits through a store of its own while the batch's
  // unit runs m-7's handler: after the BatchGetItem found every key free, before the
  // TransactWriteItems.
  const auto other_store = open_inbox_store(tables_.url(), clock_);
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
    tx.put(orders_, order(envelope.message_id));
  });
  const std::vector<BatchItemResult> results = inbox.dispatch_batch(notes("m-", 0, 20));
  ASSERT_TRUE(delivered_concurrently);
  ASSERT_EQ(results.size(), 20u);
  for (const BatchItemResult& result : results) {
    EXPECT_EQ(result.outcome, result.message_id == "m-7" ? DispatchOutcome::kSkippedDuplicate
                                                         : DispatchOutcome::kProcessed)
        << result.message_id;
    EXPECT_EQ(result.error, nullptr) << result.message_id;
  }
  EXPECT_EQ(runs_["m-7"], 1) << "the rerun's pre-check finds m-7 recorded";
  EXPECT_EQ(runs_["m-8"], 2) << "the cancelled transaction wrote nothing; the rerun did";
  EXPECT_EQ(orders(), 19u) << "one order per message the batch processed, none for m-7";
  EXPECT_EQ(dedup_items(), 20u);
}

}  // namespace
}  // namespace docket::dynamodb
