// docket health --host-file: a service host's health file (written here with the
// host's own serialiser, as a running host writes it) passes while fresh, running and
// healthy, and fails naming why: grown old, stopped, a loop restarting with its error,
// missing or not a health file; with neither --store nor --host-file the command line
// is refused.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "core/host_health_file.h"
#include "tool_runner.h"

namespace docket::testing {
namespace {

using namespace std::chrono_literals;

class HealthHostFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/docket-health-host-XXXXXX";
    ASSERT_NE(::mkdtemp(pattern), nullptr);
    dir_ = pattern;
    path_ = (dir_ / "health.json").string();
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  void write(const HostHealth& health, std::chrono::seconds age) const {
    core::write_host_health_file(
        path_, core::host_health_json(health, SystemClock::instance().now() - age, 4242));
  }
  static HostHealth running(LoopState billing = LoopState::kRunning) {
    HostHealth health{.running = true, .healthy = billing == LoopState::kRunning, .loops = {}};
    health.loops.push_back({.name = "relay", .state = LoopState::kRunning});
    health.loops.push_back({.name = "billing", .state = billing});
    if (billing == LoopState::kRestarting) {
      health.loops.back().restarts = 4;
      health.loops.back().last_error = "PostgreSQL at db:5432 refused the connection";
    }
    return health;
  }
  ToolRun health(const std::string& max_age = "30s") const {
    return run_docket({"health", "--host-file", path_, "--max-host-age", max_age});
  }

  std::filesystem::path dir_;
  std::string path_;
};

TEST_F(HealthHostFileTest, AFreshHealthyHostPasses) {
  write(running(), 1s);
  const ToolRun run = health();
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_NE(run.out.find("ok   host: 2 loops running (pid 4242"), std::string::npos) << run.out;
}

TEST_F(HealthHostFileTest, AFileTheHostStoppedRewritingFails) {
  write(running(), 120s);
  const ToolRun run = health("30s");
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_NE(run.out.find("FAIL host: written 2m"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("stopped rewriting it"), std::string::npos) << run.out;
  EXPECT_EQ(health("5m").exit_code, 0) << "the same file within a longer maximum";
}

TEST_F(HealthHostFileTest, AStoppedHostAndARestartingLoopFailNamingWhy) {
  HostHealth stopped = running();
  stopped.running = false;
  write(stopped, 0s);
  ToolRun run = health();
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_NE(run.out.find("is not running"), std::string::npos) << run.out;

  write(running(LoopState::kRestarting), 0s);
  run = health();
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_NE(run.out.find("FAIL host: billing restarting after 4 restarts, last error: PostgreSQL "
                         "at db:5432 refused the connection"),
            std::string::npos)
      << run.out;
}

TEST_F(HealthHostFileTest, AMissingFileOrAnotherFileFails) {
  ToolRun run = health();
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_NE(run.out.find("FAIL host: cannot read"), std::string::npos) << run.out;
  std::ofstream(path_) << "{\"not\": \"a health file\"}";
  run = health();
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_NE(run.out.find("is not a service host's health file"), std::string::npos) << run.out;
}

TEST_F(HealthHostFileTest, NothingToCheckIsAUsageError) {
  const ToolRun run = run_docket({"health"});
  EXPECT_EQ(run.exit_code, 2) << describe(run);
  EXPECT_NE(run.err.find("nothing to check"), std::string::npos) << run.err;
  const ToolRun bad_age = run_docket({"health", "--host-file", path_, "--max-host-age", "soon"});
  EXPECT_EQ(bad_age.exit_code, 2) << describe(bad_age);
}

}  // namespace
}  // namespace docket::testing
