#include "document/inbox_batch_cases.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "docket/core/tenant.h"
#include "docket/spi/inbox_unit.h"
#include "document/inbox_note.h"
#include "providers/kit/http/request_count.h"

namespace docket::document_tests {

void PrintTo(const InboxBatchCase& batch_case, std::ostream* os) {
  *os << "a batch of " << batch_case.large_batch << " in " << batch_case.large_batch_requests
      << " requests";
}

InboxDispatcher InboxBatch::counting_dispatcher() {
  return inbox_->dispatcher([this](const Envelope& envelope, HandlerTransaction& tx) {
    ++runs_[envelope.message_id];
    inbox_->put_order(tx, envelope.message_id);
  });
}

void InboxBatch::warm_up(const InboxDispatcher& inbox) {
  ASSERT_EQ(inbox.dispatch(note("warm-up")), DispatchOutcome::kProcessed);
  runs_.clear();
}

namespace inbox_batch_cases {
namespace {

// "m-<from>" up to "m-<to - 1>", every `step`th.
std::vector<Envelope> notes(int from, int to, int step = 1) {
  std::vector<Envelope> batch;
  for (int i = from; i < to; i += step) {
    batch.push_back(note("m-" + std::to_string(i)));
  }
  return batch;
}

// The requests docket sends while `dispatch` runs (every HTTP request of docket's
// clients in this process, kit/http: the test's own reads are outside it).
template <typename F>
std::uint64_t requests_of(F&& dispatch) {
  const std::uint64_t before = kit::http::docket_requests().load();
  dispatch();
  return kit::http::docket_requests().load() - before;
}

}  // namespace
}  // namespace inbox_batch_cases

using inbox_batch_cases::notes;
using inbox_batch_cases::requests_of;

TEST_P(InboxBatch, FortyNewMessagesAreOneReadAndOneCommit) {
  const auto inbox = counting_dispatcher();
  warm_up(inbox);
  std::vector<BatchItemResult> results;
  EXPECT_EQ(requests_of([&] { results = inbox.dispatch_batch(notes(0, 40)); }), 2u)
      << "one batched read of the 40 dedup records, one commit of 80 writes";
  ASSERT_EQ(results.size(), 40u);
  for (const BatchItemResult& result : results) {
    EXPECT_EQ(result.outcome, DispatchOutcome::kProcessed) << result.message_id;
    EXPECT_EQ(runs_[result.message_id], 1) << result.message_id;
  }
  EXPECT_EQ(inbox_->orders(), 41u);
  EXPECT_EQ(inbox_->dedup_records(), 41u);
}

TEST_P(InboxBatch, ABatchBeyondOneReadOrOneCommitSplitsAtTheProvidersLimits) {
  const InboxBatchCase& limits = GetParam();
  const auto inbox = counting_dispatcher();
  warm_up(inbox);
  std::vector<BatchItemResult> results;
  EXPECT_EQ(requests_of([&] { results = inbox.dispatch_batch(notes(0, limits.large_batch)); }),
            limits.large_batch_requests)
      << limits.large_batch_split;
  ASSERT_EQ(results.size(), static_cast<std::size_t>(limits.large_batch));
  for (const BatchItemResult& result : results) {
    EXPECT_EQ(result.outcome, DispatchOutcome::kProcessed) << result.message_id;
  }
  EXPECT_EQ(runs_.size(), static_cast<std::size_t>(limits.large_batch));
  EXPECT_EQ(inbox_->orders(), static_cast<std::size_t>(limits.large_batch) + 1);
  EXPECT_EQ(inbox_->dedup_records(), static_cast<std::size_t>(limits.large_batch) + 1);
}

TEST_P(InboxBatch, RecordedMessagesOfABatchAreSkippedWithoutTheirHandlers) {
  const auto inbox = counting_dispatcher();
  warm_up(inbox);
  ASSERT_EQ(inbox.dispatch_batch(notes(0, 100, 2)).size(), 50u);  // the even ones
  runs_.clear();
  std::vector<BatchItemResult> results;
  EXPECT_EQ(requests_of([&] { results = inbox.dispatch_batch(notes(0, 100)); }), 2u)
      << "one batched read of 100 keys, one commit of the 50 new messages";
  ASSERT_EQ(results.size(), 100u);
  for (int i = 0; i < 100; ++i) {
    const BatchItemResult& result = results[static_cast<std::size_t>(i)];
    EXPECT_EQ(result.message_id, "m-" + std::to_string(i));
    EXPECT_EQ(result.outcome,
              i % 2 == 0 ? DispatchOutcome::kSkippedDuplicate : DispatchOutcome::kProcessed)
        << result.message_id;
    EXPECT_EQ(runs_[result.message_id], i % 2 == 0 ? 0 : 1) << result.message_id;
  }
  EXPECT_EQ(inbox_->orders(), 101u);
  EXPECT_EQ(inbox_->dedup_records(), 101u);
}

TEST_P(InboxBatch, AMessageRepeatedInABatchIsADuplicateWithoutARequest) {
  const auto inbox = counting_dispatcher();
  warm_up(inbox);
  const std::vector<Envelope> batch = {note("a"), note("b"), note("a")};
  std::vector<BatchItemResult> results;
  EXPECT_EQ(requests_of([&] { results = inbox.dispatch_batch(batch); }), 2u)
      << "the repeat is its first delivery's duplicate, held back with it: no read of its own";
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(results[0].outcome, DispatchOutcome::kProcessed);
  EXPECT_EQ(results[1].outcome, DispatchOutcome::kProcessed);
  EXPECT_EQ(results[2].outcome, DispatchOutcome::kSkippedDuplicate);
  EXPECT_EQ(runs_["a"], 1);
  EXPECT_EQ(inbox_->orders(), 3u);
}

TEST_P(InboxBatch, AKeyCommittedAfterThePreCheckIsADuplicateAndTheRestCommitOnce) {
  // A concurrent delivery of m-7 commits through a store of its own while the batch's
  // unit runs m-7's handler: after the batched read found every key free, before the
  // commit.
  const auto other_store = inbox_->open_other_store();
  bool delivered_concurrently = false;
  const auto inbox = inbox_->dispatcher([&](const Envelope& envelope, HandlerTransaction& tx) {
    ++runs_[envelope.message_id];
    if (envelope.message_id == "m-7" && !delivered_concurrently) {
      delivered_concurrently = true;
      auto unit = spi::InboxStoreAccess::begin(*other_store);
      ASSERT_TRUE(unit->try_record(
          InboxRecord{.key = {std::string(TenantId::untenanted().value()), "billing", "m-7"},
                      .event_type = "note",
                      .occurred_at = envelope.occurred_at,
                      .source = std::nullopt,
                      .causation_id = std::nullopt,
                      .correlation_id = std::nullopt}));
      unit->commit();
    }
    inbox_->put_order(tx, envelope.message_id);
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
  EXPECT_EQ(inbox_->orders(), 19u) << "one order per message the batch processed, none for m-7";
  EXPECT_EQ(inbox_->dedup_records(), 20u);
}

}  // namespace docket::document_tests
