// The claim runner's leases on real threads: two threads of one runner handling one
// message (the second after the first's lease ran out) end with one handler run
// committed and the other told it was superseded, whichever finishes first; a batch
// does not start a handler whose claim was taken over while earlier handlers ran, and
// renews one past half its lease; a kept lease outlives a long handler.
#include <future>
#include <latch>
#include <stdexcept>
#include <thread>

#include "claim_suite.h"
#include "docket/inbox/claim_runner.h"

namespace docket::conformance {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

struct Boom : std::runtime_error {
  Boom() : std::runtime_error("boom") {}
};

class ClaimRunnerLeaseTest : public ClaimConformance {
 protected:
  ClaimRunner runner(ClaimRunnerSettings settings = {.lease = seconds(30)}) {
    settings.owner = "runner-1";  // one owner for every thread, as one runner has
    settings.jitter = 0.0;
    return ClaimRunner(*store_, ClaimRunnerOptions("billing.SendInvoice", std::move(settings)),
                       clock_);
  }
  ClaimKey runner_key(std::string_view message_id) {
    return ClaimKey(TenantId("acme"), message_id, "billing.SendInvoice");
  }
};

// Thread 1 claims and runs; its lease runs out; thread 2 of the same runner claims the
// redelivery and runs. start() returns once both handlers run; the test then lets
// thread 1 end (first_go: throwing Boom when first_throws), and thread 2 (second_go).
struct Overlap {
  std::promise<void> first_started, second_started;
  std::latch first_go{1}, second_go{1};
  std::future<ClaimRunOutcome> first, second;

  void start(const ClaimRunner& shared, const ClaimKey& key, ManualClock& clock,
             bool first_throws) {
    first = std::async(std::launch::async, [&, key, first_throws] {
      return shared.run(key, [&] {
        first_started.set_value();
        first_go.wait();
        if (first_throws) {
          throw Boom();
        }
      });
    });
    first_started.get_future().wait();
    clock.advance(seconds(31));
    second = std::async(std::launch::async, [&, key] {
      return shared.run(key, [&] {
        second_started.set_value();
        second_go.wait();
      });
    });
    second_started.get_future().wait();
  }
};

TEST_P(ClaimRunnerLeaseTest, AThreadTakenOverFailingChangesNothingAndTheOtherCommits) {
  const ClaimRunner shared = runner();
  Overlap overlap;
  overlap.start(shared, runner_key("m-1"), clock_, /*first_throws=*/true);
  overlap.first_go.count_down();
  EXPECT_THROW(overlap.first.get(), Boom);
  // Thread 1's failure did not fail the entry: thread 2 still holds it, and no third
  // worker runs the handler while its lease lasts.
  const ClaimEntry held = entry(runner_key("m-1"));
  EXPECT_EQ(held.status, ClaimStatus::kProcessing);
  EXPECT_EQ(held.retry_count, 0u);
  int third_runs = 0;
  EXPECT_EQ(runner().run(runner_key("m-1"), [&] { ++third_runs; }),
            ClaimRunOutcome::kHeldByAnother);
  EXPECT_EQ(third_runs, 0);
  overlap.second_go.count_down();
  EXPECT_EQ(overlap.second.get(), ClaimRunOutcome::kProcessed);
  EXPECT_EQ(entry(runner_key("m-1")).status, ClaimStatus::kProcessed);
}

TEST_P(ClaimRunnerLeaseTest, AThreadTakenOverFinishingFirstIsToldItWasSuperseded) {
  const ClaimRunner shared = runner();
  Overlap overlap;
  overlap.start(shared, runner_key("m-1"), clock_, /*first_throws=*/false);
  overlap.first_go.count_down();
  EXPECT_EQ(overlap.first.get(), ClaimRunOutcome::kSuperseded);
  EXPECT_EQ(entry(runner_key("m-1")).status, ClaimStatus::kProcessing);
  overlap.second_go.count_down();
  EXPECT_EQ(overlap.second.get(), ClaimRunOutcome::kProcessed);
}

// Issue 37, point 3: earlier handlers of a batch took longer than the lease, and
// another worker took the last entry over meanwhile: its handler is not started.
TEST_P(ClaimRunnerLeaseTest, ABatchDoesNotStartAHandlerWhoseClaimWasTakenOver) {
  const milliseconds lease{200};
  const ClaimRunner batch_runner = runner({.lease = lease, .max_clock_skew = milliseconds(0)});
  const std::vector<ClaimKey> keys = {runner_key("m-1"), runner_key("m-2")};
  std::vector<int> runs(2, 0);
  const auto results = batch_runner.run_batch(std::span<const ClaimKey>(keys), [&](std::size_t i) {
    ++runs[i];
    if (i == 0) {
      clock_.advance(lease + milliseconds(1));
      ASSERT_EQ(store_->try_claim(keys[1], "thief", seconds(30)).outcome, ClaimOutcome::kClaimed);
      std::this_thread::sleep_for(lease / 2);  // a slow handler: half the lease is gone
    }
  });
  EXPECT_EQ(runs, (std::vector<int>{1, 0}));
  EXPECT_EQ(results[1].outcome, ClaimRunOutcome::kHeldByAnother);
  EXPECT_EQ(entry(keys[1]).owner, "thief");
}

TEST_P(ClaimRunnerLeaseTest, ABatchRenewsAClaimPastHalfItsLeaseBeforeItsHandler) {
  const milliseconds lease{200};
  const ClaimRunner batch_runner = runner({.lease = lease, .max_clock_skew = milliseconds(0)});
  const std::vector<ClaimKey> keys = {runner_key("m-1"), runner_key("m-2")};
  const auto results = batch_runner.run_batch(std::span<const ClaimKey>(keys), [&](std::size_t i) {
    if (i == 0) {
      clock_.advance(lease - milliseconds(1));
      std::this_thread::sleep_for(lease / 2);
    } else {
      // Renewed before this handler began: the original lease's end takes nothing.
      clock_.advance(milliseconds(2));
      EXPECT_EQ(store_->try_claim(keys[1], "thief", seconds(30)).outcome,
                ClaimOutcome::kHeldByAnother);
    }
  });
  EXPECT_EQ(results[0].outcome, ClaimRunOutcome::kProcessed);
  EXPECT_EQ(results[1].outcome, ClaimRunOutcome::kProcessed);
}

// renew_up_to: the lease of a handler running past it is renewed while it runs.
TEST_P(ClaimRunnerLeaseTest, AKeptLeaseOutlivesALongHandler) {
  const milliseconds lease{300};
  const ClaimRunner keeping =
      runner({.lease = lease, .renew_up_to = seconds(60), .max_clock_skew = milliseconds(0)});
  const Timestamp start = clock_.now();
  const auto outcome = keeping.run(runner_key("m-1"), [&] {
    clock_.advance(milliseconds(250));
    // A renewal lands a third of a lease after the claim: the lease then ends a whole
    // lease after the advanced clock.
    const auto deadline = std::chrono::steady_clock::now() + seconds(10);
    while (entry(runner_key("m-1")).lease_until != start + milliseconds(250) + lease &&
           std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(milliseconds(10));
    }
    ASSERT_EQ(entry(runner_key("m-1")).lease_until, start + milliseconds(250) + lease);
    clock_.advance(milliseconds(100));  // past the first lease's end
    EXPECT_EQ(store_->try_claim(runner_key("m-1"), "thief", seconds(30)).outcome,
              ClaimOutcome::kHeldByAnother);
  });
  EXPECT_EQ(outcome, ClaimRunOutcome::kProcessed);
}

INSTANTIATE_TEST_SUITE_P(Providers, ClaimRunnerLeaseTest,
                         ::testing::ValuesIn(all_claim_providers()), claim_provider_name);

}  // namespace
}  // namespace docket::conformance
