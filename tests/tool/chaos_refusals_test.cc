// `docket chaos` and `docket soak` refuse, in seconds and before any worker or thread
// starts, what they cannot run on: a store separate processes cannot share (memory:,
// sqlite::memory:) and, for chaos, a store whose server is not there, on every
// provider; and a chaos run never reports ok when it proved nothing (no order placed)
// or its workers failed under no fault of its own making.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "chaos/chaos_run.h"
#include "tool_runner.h"

namespace docket::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// Far beyond a refusal, far below a drain timeout (120 s by default).
constexpr std::chrono::seconds kRefusalLimit{30};

const char* const kWorkersStarted = "producer, relay and consumer started";

TEST(ChaosRefusals, AStoreProcessesCannotShareIsRefusedBeforeAnythingStarts) {
  for (const char* store : {"sqlite::memory:", "memory:"}) {
    const ToolRun run =
        run_docket_within({"chaos", "--store", store, "--kills", "1"}, kRefusalLimit);
    EXPECT_EQ(run.exit_code, 1) << store << ": " << describe(run);
    EXPECT_EQ(run.out, "") << store;
    EXPECT_THAT(run.err, HasSubstr("separate processes")) << store;
    EXPECT_THAT(run.err, HasSubstr("sqlite:///tmp/chaos.db")) << store;
    EXPECT_THAT(run.err, Not(HasSubstr(kWorkersStarted))) << store;
  }
}

TEST(SoakRefusals, AStoreItsStoresCannotShareIsRefusedBeforeAnythingStarts) {
  for (const char* store : {"sqlite::memory:", "memory:"}) {
    const ToolRun run = run_docket_within(
        {"soak", "--store", store, "--duration", "2s", "--sample-every", "1s"}, kRefusalLimit);
    EXPECT_EQ(run.exit_code, 1) << store << ": " << describe(run);
    EXPECT_EQ(run.out, "") << store;
    EXPECT_THAT(run.err, HasSubstr("separate stores")) << store;
    EXPECT_THAT(run.err, HasSubstr("sqlite:///tmp/soak.db")) << store;
    EXPECT_THAT(run.err, Not(HasSubstr("no such table"))) << store;
  }
}

// Port 1 on loopback: nothing listens there, so every connection is refused at once.
TEST(ChaosRefusals, AStoreWhoseServerIsNotThereFailsInSecondsOnEveryProvider) {
  for (const char* store :
       {"firestore://127.0.0.1:1?project=docket-test", "dynamodb://127.0.0.1:1?region=us-east-1",
        "postgresql://docket@127.0.0.1:1/docket"}) {
    const auto started = std::chrono::steady_clock::now();
    const ToolRun run =
        run_docket_within({"chaos", "--store", store, "--kills", "1"}, kRefusalLimit);
    const auto took = std::chrono::steady_clock::now() - started;
    EXPECT_EQ(run.exit_code, 1) << store << ": " << describe(run);
    EXPECT_LT(took, std::chrono::seconds(10)) << store << ": " << describe(run);
    EXPECT_THAT(run.err, HasSubstr("127.0.0.1")) << store;
    EXPECT_THAT(run.err, Not(HasSubstr(kWorkersStarted))) << store << ": " << describe(run);
    EXPECT_THAT(run.err, Not(HasSubstr("drain:"))) << store;
  }
}

// The verdict itself: what the run's numbers must be for ok.
TEST(ChaosVerdict, ARunThatPlacedNothingOrWhoseWorkersFailedIsNeverOk) {
  tool::ChaosReport report;
  report.drained = true;
  report.check.orders = 0;  // every other check empty, and so "holding"
  EXPECT_FALSE(report.ok()) << "no order placed";

  report.check.orders = 20;
  report.check.invoices = 20;
  EXPECT_TRUE(report.ok());

  report.worker_exits = 2;  // ended on their own, no fault made
  EXPECT_TRUE(report.workers_failed());
  EXPECT_FALSE(report.ok());

  report.server_crashes = 1;  // ... under a fault of the run's own making: tolerated
  EXPECT_FALSE(report.workers_failed());
  EXPECT_TRUE(report.ok());
}

}  // namespace
}  // namespace docket::testing
