// Concurrent claimers of one entry: real threads released together by a barrier, and,
// where the store is shared between processes, forked processes released together by
// a pipe. Of 16 claimers exactly one may win each entry.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <barrier>
#include <thread>

#include "claim_suite.h"

namespace docket::conformance {
namespace {

constexpr int kClaimers = 16;
constexpr int kEntries = 40;

class ClaimRaceTest : public ClaimConformance {};

TEST_P(ClaimRaceTest, SixteenThreadsClaimingOneEntryLeaveExactlyOneWinner) {
  std::array<std::array<ClaimOutcome, kEntries>, kClaimers> outcomes{};
  const int errors = run_together(kClaimers, [&](int t) {
    for (int e = 0; e < kEntries; ++e) {
      outcomes[t][e] =
          store_->try_claim(key("m-" + std::to_string(e)), "worker-" + std::to_string(t), kLease)
              .outcome;
    }
  });
  ASSERT_EQ(errors, 0);
  for (int e = 0; e < kEntries; ++e) {
    int winners = 0;
    std::string winner;
    for (int t = 0; t < kClaimers; ++t) {
      if (outcomes[t][e] == ClaimOutcome::kClaimed) {
        ++winners;
        winner = "worker-" + std::to_string(t);
      } else {
        EXPECT_EQ(outcomes[t][e], ClaimOutcome::kHeldByAnother);
      }
    }
    EXPECT_EQ(winners, 1) << "entry m-" << e;
    EXPECT_EQ(entry(key("m-" + std::to_string(e))).owner, winner);
  }
}

TEST_P(ClaimRaceTest, SixteenThreadsMarkingProcessedLeaveExactlyOneFirstWriter) {
  std::barrier start(kClaimers);
  std::array<std::atomic<int>, kEntries> firsts{};
  std::vector<std::thread> threads;
  for (int t = 0; t < kClaimers; ++t) {
    threads.emplace_back([&] {
      start.arrive_and_wait();
      for (int e = 0; e < kEntries; ++e) {
        try {
          firsts[e] += store_->try_mark_processed(key("m-" + std::to_string(e))) ? 1 : 0;
        } catch (const std::exception& ex) {
          ADD_FAILURE() << ex.what();
        }
      }
    });
  }
  for (auto& thread : threads) {
    thread.join();
  }
  for (int e = 0; e < kEntries; ++e) {
    EXPECT_EQ(firsts[e].load(), 1) << "entry m-" << e;
  }
}

// Run on the providers whose stores other processes share (and which say so).
class ClaimProcessTest : public ClaimConformance {
 protected:
  void SetUp() override {
    ClaimConformance::SetUp();
    ASSERT_TRUE(store_->capabilities().shared_between_processes);
  }
};

// On an early return, releases and reaps every child.
struct Children {
  int go_fd = -1;
  std::vector<pid_t> pids;
  ~Children() {
    if (go_fd >= 0) {
      close(go_fd);
    }
    for (const pid_t pid : pids) {
      kill(pid, SIGKILL);
      waitpid(pid, nullptr, 0);
    }
  }
};

// A child: opens its own store on the fixture's database, reports ready, waits for
// "go", claims every entry once and writes a bitmap of those it won. Never returns.
[[noreturn]] void claim_in_child(ClaimFixture& fixture, int index, int ready_fd, int go_fd,
                                 int result_fd) {
  int code = 0;
  std::array<char, kEntries> won{};
  try {
    auto store = fixture.open(SystemClock::instance());
    char byte = 'r';
    code = write(ready_fd, &byte, 1) == 1 ? 0 : 3;
    while (code == 0 && read(go_fd, &byte, 1) > 0) {
    }
    for (int e = 0; code == 0 && e < kEntries; ++e) {
      const auto result =
          store->try_claim(ClaimKey(TenantId("acme"), "m-" + std::to_string(e), "billing.Invoice"),
                           "process-" + std::to_string(index), std::chrono::minutes(10));
      won[e] = result.outcome == ClaimOutcome::kClaimed ? 1 : 0;
      code = result.outcome == ClaimOutcome::kAlreadyProcessed ? 5 : code;
    }
  } catch (...) {
    code = 2;
  }
  if (write(result_fd, won.data(), won.size()) != static_cast<ssize_t>(won.size())) {
    code = 4;
  }
  _exit(code);
}

TEST_P(ClaimProcessTest, SixteenProcessesClaimingOneEntryLeaveExactlyOneWinner) {
  store_.reset();  // children must not share this process's connections
  std::array<int, 2> ready{}, go{};
  ASSERT_EQ(pipe(ready.data()), 0);
  ASSERT_EQ(pipe(go.data()), 0);
  std::array<std::array<int, 2>, kClaimers> results{};
  Children children{.go_fd = go[1], .pids = {}};
  for (int p = 0; p < kClaimers; ++p) {
    ASSERT_EQ(pipe(results[p].data()), 0);
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      close(go[1]);
      claim_in_child(*fixture_, p, ready[1], go[0], results[p][1]);
    }
    close(results[p][1]);
    children.pids.push_back(pid);
  }
  close(ready[1]);
  close(go[0]);
  char byte = 0;
  for (int p = 0; p < kClaimers; ++p) {
    ASSERT_EQ(read(ready[0], &byte, 1), 1) << "a child failed before it was ready";
  }
  close(go[1]);  // every child's read() returns 0: go
  children.go_fd = -1;
  std::array<int, kEntries> winners{};
  for (int p = 0; p < kClaimers; ++p) {
    std::array<char, kEntries> won{};
    ASSERT_EQ(read(results[p][0], won.data(), won.size()), static_cast<ssize_t>(won.size()));
    close(results[p][0]);
    for (int e = 0; e < kEntries; ++e) {
      winners[e] += won[e];
    }
  }
  while (!children.pids.empty()) {
    int status = 0;
    ASSERT_EQ(waitpid(children.pids.back(), &status, 0), children.pids.back());
    children.pids.pop_back();
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "child status " << status;
  }
  close(ready[0]);
  for (int e = 0; e < kEntries; ++e) {
    EXPECT_EQ(winners[e], 1) << "entry m-" << e;
  }
  store_ = fixture_->open(clock_);
  EXPECT_EQ(store_->counts(std::nullopt).processing, static_cast<std::uint64_t>(kEntries));
}

// A claimer that dies holding a claim is superseded when its lease ends, not before.
TEST_P(ClaimProcessTest, AClaimerKilledMidHandlerIsSupersededAfterItsLease) {
  store_.reset();
  std::array<int, 2> claimed{};
  ASSERT_EQ(pipe(claimed.data()), 0);
  Children children;
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    close(claimed[0]);
    int code = 0;
    try {
      auto store = fixture_->open(SystemClock::instance());
      const auto result = store->try_claim(key("m-1"), "doomed", std::chrono::minutes(5));
      char byte = result.outcome == ClaimOutcome::kClaimed ? 'c' : 'x';
      code = write(claimed[1], &byte, 1) == 1 ? 0 : 3;
      pause();  // "running the handler" until killed
    } catch (...) {
      code = 2;
    }
    _exit(code);
  }
  children.pids.push_back(pid);
  close(claimed[1]);
  char byte = 0;
  ASSERT_EQ(read(claimed[0], &byte, 1), 1);
  ASSERT_EQ(byte, 'c');
  close(claimed[0]);
  ASSERT_EQ(kill(pid, SIGKILL), 0);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  children.pids.clear();
  ASSERT_TRUE(WIFSIGNALED(status));

  store_ = fixture_->open(clock_);
  const ClaimEntry orphan = entry(key("m-1"));
  ASSERT_EQ(orphan.owner, "doomed");
  ASSERT_TRUE(orphan.lease_until.has_value());
  clock_.set(*orphan.lease_until - std::chrono::microseconds(1));
  EXPECT_EQ(store_->try_claim(key("m-1"), "heir", kLease).outcome, ClaimOutcome::kHeldByAnother);
  clock_.set(*orphan.lease_until);
  EXPECT_EQ(store_->try_claim(key("m-1"), "heir", kLease).outcome, ClaimOutcome::kClaimed);
  EXPECT_TRUE(store_->mark_processed(key("m-1"), token(key("m-1"), "heir")));
}

INSTANTIATE_TEST_SUITE_P(Providers, ClaimRaceTest, ::testing::ValuesIn(all_claim_providers()),
                         claim_provider_name);
INSTANTIATE_TEST_SUITE_P(SharedStores, ClaimProcessTest,
                         ::testing::ValuesIn(multi_process_claim_providers()), claim_provider_name);

}  // namespace
}  // namespace docket::conformance
