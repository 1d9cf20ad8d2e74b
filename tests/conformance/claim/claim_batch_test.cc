// Batches of claims and marks (try_claim_batch, mark_processed_batch, and the runner's
// run_batch): every entry of a batch on its own terms, as the one-entry calls would
// treat it, whichever other entries share the batch; refused batches write nothing;
// concurrent batches over the same entries leave exactly one winner per entry.
#include <atomic>
#include <stdexcept>
#include <vector>

#include "claim_suite.h"
#include "docket/core/error.h"
#include "docket/inbox/claim_runner.h"

namespace docket::conformance {
namespace {

using std::chrono::seconds;

class ClaimBatchTest : public ClaimConformance {
 protected:
  static std::vector<ClaimKey> keys(int count, std::string_view prefix = "m-") {
    std::vector<ClaimKey> out;
    for (int i = 0; i < count; ++i) {
      out.push_back(key(std::string(prefix) + std::to_string(i)));
    }
    return out;
  }
};

TEST_P(ClaimBatchTest, ABatchOfNewMessagesIsClaimedAndMarkedWhole) {
  const std::vector<ClaimKey> batch = keys(7);
  const Timestamp now = clock_.now();
  const std::vector<ClaimResult> claims = store_->try_claim_batch(batch, "worker-a", kLease);
  ASSERT_EQ(claims.size(), batch.size());
  for (std::size_t i = 0; i < batch.size(); ++i) {
    EXPECT_EQ(claims[i].outcome, ClaimOutcome::kClaimed) << i;
    EXPECT_EQ(claims[i].retry_count, 0u);
    EXPECT_EQ(claims[i].lease_until, now + kLease);
    const ClaimEntry stored = entry(batch[i]);
    EXPECT_EQ(stored.status, ClaimStatus::kProcessing);
    EXPECT_EQ(stored.owner, "worker-a");
    EXPECT_EQ(stored.lease_until, now + kLease);
    EXPECT_EQ(stored.received_at, now);
  }
  clock_.advance(seconds(3));
  EXPECT_EQ(store_->mark_processed_batch(batch, tokens(batch, "worker-a")),
            std::vector<bool>(batch.size(), true));
  for (const ClaimKey& k : batch) {
    const ClaimEntry stored = entry(k);
    EXPECT_EQ(stored.status, ClaimStatus::kProcessed);
    EXPECT_EQ(stored.processed_at, clock_.now());
    EXPECT_EQ(stored.owner, std::nullopt);
  }
  // A redelivery of the whole batch finds every message handled.
  for (const ClaimResult& again : store_->try_claim_batch(batch, "worker-b", kLease)) {
    EXPECT_EQ(again.outcome, ClaimOutcome::kAlreadyProcessed);
  }
}

TEST_P(ClaimBatchTest, EachEntryOfABatchIsClaimedOnItsOwnTerms) {
  process(key("processed"));
  const Timestamp held_until =
      store_->try_claim(key("held"), "worker-b", kLease * 4).lease_until.value();
  ASSERT_EQ(store_->try_claim(key("failed"), "worker-b", kLease).outcome, ClaimOutcome::kClaimed);
  ASSERT_TRUE(
      store_->mark_failed(key("failed"), token(key("failed"), "worker-b"), {"boom", clock_.now()}));
  ASSERT_EQ(store_->try_claim(key("released"), "worker-b", kLease).outcome, ClaimOutcome::kClaimed);
  ASSERT_TRUE(store_->release(key("released"), token(key("released"), "worker-b")));
  ASSERT_EQ(store_->try_claim(key("expired"), "worker-b", kLease).outcome, ClaimOutcome::kClaimed);
  clock_.advance(kLease);  // "expired"'s lease ends now; "held"'s lasts

  const std::vector<ClaimKey> batch = {key("new-1"),  key("processed"), key("held"),
                                       key("failed"), key("released"),  key("expired"),
                                       key("new-2")};
  const Timestamp now = clock_.now();
  const std::vector<ClaimResult> claims = store_->try_claim_batch(batch, "worker-a", kLease);
  ASSERT_EQ(claims.size(), batch.size());
  EXPECT_EQ(claims[0].outcome, ClaimOutcome::kClaimed);
  EXPECT_EQ(claims[1].outcome, ClaimOutcome::kAlreadyProcessed);
  EXPECT_EQ(claims[2].outcome, ClaimOutcome::kHeldByAnother);
  EXPECT_EQ(claims[2].lease_until, held_until);
  EXPECT_EQ(claims[3].outcome, ClaimOutcome::kClaimed);
  EXPECT_EQ(claims[3].retry_count, 1u);
  EXPECT_EQ(claims[4].outcome, ClaimOutcome::kClaimed);
  EXPECT_EQ(claims[5].outcome, ClaimOutcome::kClaimed);
  EXPECT_EQ(claims[6].outcome, ClaimOutcome::kClaimed);
  for (const std::size_t i : {0, 3, 4, 5, 6}) {
    EXPECT_EQ(claims[i].lease_until, now + kLease) << i;
    const ClaimEntry stored = entry(batch[i]);
    EXPECT_EQ(stored.status, ClaimStatus::kProcessing) << i;
    EXPECT_EQ(stored.owner, "worker-a") << i;
  }
  EXPECT_EQ(entry(key("failed")).retry_count, 1u);
  EXPECT_EQ(entry(key("held")).owner, "worker-b");
  EXPECT_EQ(entry(key("processed")).status, ClaimStatus::kProcessed);
}

TEST_P(ClaimBatchTest, AMarkBatchMarksOnlyWhatItsOwnerHolds) {
  for (const char* id : {"mine-1", "mine-2"}) {
    ASSERT_EQ(store_->try_claim(key(id), "worker-a", kLease).outcome, ClaimOutcome::kClaimed);
  }
  ASSERT_EQ(store_->try_claim(key("theirs"), "worker-b", kLease).outcome, ClaimOutcome::kClaimed);
  const ClaimEntry theirs = entry(key("theirs"));
  const std::vector<ClaimKey> batch = {key("mine-1"), key("theirs"), key("never"), key("mine-2")};
  EXPECT_EQ(store_->mark_processed_batch(batch, tokens(batch, "worker-a")),
            (std::vector<bool>{true, false, false, true}));
  EXPECT_EQ(entry(key("mine-1")).status, ClaimStatus::kProcessed);
  EXPECT_EQ(entry(key("mine-2")).status, ClaimStatus::kProcessed);
  EXPECT_EQ(entry(key("theirs")), theirs);
  EXPECT_EQ(store_->find(key("never")), std::nullopt);
}

TEST_P(ClaimBatchTest, ARefusedBatchWritesNothing) {
  const std::vector<ClaimKey> twice = {key("m-1"), key("m-2"), key("m-1")};
  EXPECT_THROW(store_->try_claim_batch(twice, "worker-a", kLease), InvalidInputError);
  EXPECT_THROW(
      store_->try_claim_batch(keys(static_cast<int>(kMaxClaimBatch) + 1), "worker-a", kLease),
      InvalidInputError);
  EXPECT_THROW(store_->try_claim_batch(keys(2), "", kLease), InvalidInputError);
  EXPECT_THROW(store_->try_claim_batch(keys(2), "worker-a", seconds(0)), InvalidInputError);
  EXPECT_EQ(store_->find(key("m-0")), std::nullopt);
  EXPECT_EQ(store_->find(key("m-1")), std::nullopt);
  EXPECT_TRUE(store_->try_claim_batch({}, "worker-a", kLease).empty());

  ASSERT_EQ(store_->try_claim(key("m-1"), "worker-a", kLease).outcome, ClaimOutcome::kClaimed);
  EXPECT_THROW(store_->mark_processed_batch(twice, tokens(twice, "worker-a")), InvalidInputError);
  EXPECT_EQ(entry(key("m-1")).status, ClaimStatus::kProcessing);
  EXPECT_TRUE(store_->mark_processed_batch({}, {}).empty());
  EXPECT_THROW(store_->mark_processed_batch(std::vector{key("m-1")}, {}), InvalidInputError);
  EXPECT_EQ(entry(key("m-1")).status, ClaimStatus::kProcessing);
  // The largest batch is taken.
  const std::vector<ClaimKey> full = keys(static_cast<int>(kMaxClaimBatch), "full-");
  for (const ClaimResult& claim : store_->try_claim_batch(full, "worker-a", kLease)) {
    EXPECT_EQ(claim.outcome, ClaimOutcome::kClaimed);
  }
  EXPECT_EQ(store_->mark_processed_batch(full, tokens(full, "worker-a")),
            std::vector<bool>(full.size(), true));
}

TEST_P(ClaimBatchTest, SixteenBatchesOverTheSameEntriesLeaveOneWinnerEach) {
  constexpr int kClaimers = 16;
  constexpr int kEntries = 20;
  // Each claimer names the entries in its own order, so that the batches overlap in
  // every way: no claimer's batch is another's.
  std::vector<std::vector<ClaimResult>> results(kClaimers);
  std::vector<std::vector<ClaimKey>> batches(kClaimers);
  for (int t = 0; t < kClaimers; ++t) {
    for (int e = 0; e < kEntries; ++e) {
      batches[t].push_back(key("m-" + std::to_string((e * 7 + t) % kEntries)));
    }
  }
  const int errors = run_together(kClaimers, [&](int t) {
    results[t] = store_->try_claim_batch(batches[t], "worker-" + std::to_string(t), kLease);
  });
  ASSERT_EQ(errors, 0);
  for (int e = 0; e < kEntries; ++e) {
    const ClaimKey k = key("m-" + std::to_string(e));
    int winners = 0;
    std::string winner;
    for (int t = 0; t < kClaimers; ++t) {
      for (int i = 0; i < kEntries; ++i) {
        if (batches[t][i] != k) {
          continue;
        }
        if (results[t][i].outcome == ClaimOutcome::kClaimed) {
          ++winners;
          winner = "worker-" + std::to_string(t);
        } else {
          EXPECT_EQ(results[t][i].outcome, ClaimOutcome::kHeldByAnother);
        }
      }
    }
    EXPECT_EQ(winners, 1) << "entry m-" << e;
    EXPECT_EQ(entry(k).owner, winner);
  }
}

// Claim batches and mark batches of overlapping entries running at once, in threads
// that name the entries in different orders: every entry is claimed and marked by
// exactly one of them, whatever interleaving of locks the store takes.
TEST_P(ClaimBatchTest, ConcurrentClaimAndMarkBatchesProcessEachEntryOnce) {
  constexpr int kWorkers = 8;
  constexpr int kEntries = 60;
  constexpr int kBatch = 15;
  std::atomic<int> claimed = 0;
  std::atomic<int> marked = 0;
  const int errors = run_together(kWorkers, [&](int t) {
    const std::string owner = "worker-" + std::to_string(t);
    // Each worker walks every entry once, in batches, from its own offset.
    for (int first = 0; first < kEntries; first += kBatch) {
      std::vector<ClaimKey> batch;
      for (int j = first; j < first + kBatch; ++j) {
        batch.push_back(key("m-" + std::to_string((j * 7 + t * 11) % kEntries)));
      }
      const std::vector<ClaimResult> results = store_->try_claim_batch(batch, owner, kLease);
      std::vector<ClaimKey> mine;
      std::vector<ClaimToken> held;
      for (std::size_t i = 0; i < batch.size(); ++i) {
        if (results[i].outcome == ClaimOutcome::kClaimed) {
          mine.push_back(batch[i]);
          held.push_back(results[i].token);
        }
      }
      claimed += static_cast<int>(mine.size());
      for (const bool done : store_->mark_processed_batch(mine, held)) {
        marked += done ? 1 : 0;
      }
    }
  });
  ASSERT_EQ(errors, 0);
  EXPECT_EQ(claimed, kEntries);
  EXPECT_EQ(marked, kEntries);
  for (int e = 0; e < kEntries; ++e) {
    EXPECT_EQ(entry(key("m-" + std::to_string(e))).status, ClaimStatus::kProcessed) << e;
  }
}

struct BatchGatewayDown : std::runtime_error {
  BatchGatewayDown() : std::runtime_error("gateway down") {}
};

TEST_P(ClaimBatchTest, TheRunnerRunsABatchOnceAndMarksAFailingHandlerFailed) {
  const ClaimRunner runner(*store_,
                           ClaimRunnerOptions("billing.Invoice", {.lease = seconds(30),
                                                                  .backoff_base = seconds(2),
                                                                  .backoff_cap = seconds(60),
                                                                  .jitter = 0.0,
                                                                  .owner = "runner-1"}),
                           clock_);
  const TenantScope scope(TenantId("acme"));
  process(key("m-done"));
  const std::vector<std::string_view> ids = {"m-1", "m-done", "m-boom", "m-2"};
  std::vector<std::size_t> ran;
  const std::vector<ClaimBatchRun> runs = runner.run_batch(ids, [&](std::size_t i) {
    ran.push_back(i);
    if (ids[i] == "m-boom") {
      throw BatchGatewayDown();
    }
  });
  EXPECT_EQ(ran, (std::vector<std::size_t>{0, 2, 3}));
  ASSERT_EQ(runs.size(), 4u);
  EXPECT_EQ(runs[0].outcome, ClaimRunOutcome::kProcessed);
  EXPECT_EQ(runs[1].outcome, ClaimRunOutcome::kAlreadyProcessed);
  EXPECT_EQ(runs[2].outcome, ClaimRunOutcome::kFailed);
  EXPECT_THROW(std::rethrow_exception(runs[2].error), BatchGatewayDown);
  EXPECT_EQ(runs[3].outcome, ClaimRunOutcome::kProcessed);
  EXPECT_EQ(runs[0].error, nullptr);
  EXPECT_EQ(entry(key("m-1")).status, ClaimStatus::kProcessed);
  EXPECT_EQ(entry(key("m-2")).status, ClaimStatus::kProcessed);
  const ClaimEntry failed = entry(key("m-boom"));
  EXPECT_EQ(failed.status, ClaimStatus::kFailed);
  EXPECT_EQ(failed.retry_count, 1u);
  EXPECT_EQ(failed.last_error, "gateway down");
  EXPECT_EQ(failed.next_attempt_at, clock_.now() + seconds(2));

  // Redelivered: the processed ones are skipped, the failed one runs again.
  ran.clear();
  const std::vector<ClaimBatchRun> again =
      runner.run_batch(ids, [&](std::size_t i) { ran.push_back(i); });
  EXPECT_EQ(ran, (std::vector<std::size_t>{2}));
  EXPECT_EQ(again[0].outcome, ClaimRunOutcome::kAlreadyProcessed);
  EXPECT_EQ(again[2].outcome, ClaimRunOutcome::kProcessed);
  EXPECT_EQ(entry(key("m-boom")).retry_count, 1u);
}

INSTANTIATE_TEST_SUITE_P(Providers, ClaimBatchTest, ::testing::ValuesIn(all_claim_providers()),
                         claim_provider_name);

}  // namespace
}  // namespace docket::conformance
