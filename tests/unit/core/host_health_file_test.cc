// A ServiceHost's health file (ServiceHostSettings::health_file): written at start,
// kept while the host runs (a restarting loop shows with its error), and marked stopped
// when run() returns; a path that cannot be written fails run() before any loop runs;
// the JSON carries any error text whole.
#include "core/host_health_file.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "docket/core/error.h"
#include "docket/core/service_host.h"

namespace docket {
namespace {

using namespace std::chrono_literals;

class HostHealthFile : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/docket-host-health-XXXXXX";
    ASSERT_NE(::mkdtemp(pattern), nullptr);
    dir_ = pattern;
    path_ = (dir_ / "health.json").string();
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  nlohmann::json read() const {
    std::ifstream in(path_);
    std::stringstream text;
    text << in.rdbuf();
    return nlohmann::json::parse(text.str(), nullptr, false);
  }

  // Reads the file until `holds` says yes, for at most 10 s: the host rewrites it every
  // few milliseconds, so this waits for an observable state, not for time to pass.
  nlohmann::json read_until(const std::function<bool(const nlohmann::json&)>& holds) const {
    const auto deadline = std::chrono::steady_clock::now() + 10s;
    nlohmann::json health;
    while (std::chrono::steady_clock::now() < deadline) {
      health = read();
      if (!health.is_discarded() && holds(health)) {
        return health;
      }
      std::this_thread::yield();
    }
    ADD_FAILURE() << "the health file never reached the state waited for; last: " << health;
    return health;
  }

  std::filesystem::path dir_;
  std::string path_;
};

TEST_F(HostHealthFile, IsKeptWhileTheHostRunsAndSaysStoppedWhenItReturns) {
  ServiceHost host(ServiceHostSettings{.handle_signals = false,
                                       .restart_base = 1ms,
                                       .restart_cap = 2ms,
                                       .health_file = path_,
                                       .health_interval = 2ms});
  host.add("relay", [](std::stop_token stop) {
    std::mutex mutex;
    std::condition_variable_any cv;
    std::unique_lock lock(mutex);
    cv.wait(lock, stop, [] { return false; });
  });
  host.add("projections", [](std::stop_token) -> void {
    throw std::runtime_error("store \"events\" unreachable");
  });
  std::thread watcher([&] {
    const nlohmann::json failing = read_until([](const nlohmann::json& h) {
      return h["loops"].size() == 2 && h["loops"][1]["restarts"].get<int>() >= 1;
    });
    EXPECT_EQ(failing["pid"], ::getpid());
    EXPECT_TRUE(failing["running"].get<bool>());
    EXPECT_FALSE(failing["healthy"].get<bool>());
    EXPECT_EQ(failing["loops"][0]["name"], "relay");
    EXPECT_EQ(failing["loops"][0]["state"], "running");
    EXPECT_EQ(failing["loops"][1]["last_error"], "store \"events\" unreachable");
    EXPECT_TRUE(failing["loops"][1]["last_error_at"].is_string());
    EXPECT_EQ(failing["health_file_error"], "");
    host.stop();
  });
  host.run();
  watcher.join();
  const nlohmann::json stopped = read();
  ASSERT_FALSE(stopped.is_discarded());
  EXPECT_FALSE(stopped["running"].get<bool>());
  EXPECT_EQ(stopped["loops"][0]["state"], "stopped");
  EXPECT_FALSE(std::filesystem::exists(path_ + ".tmp")) << "the rename left its temporary";
}

TEST_F(HostHealthFile, APathItCannotWriteFailsRunBeforeAnyLoopRuns) {
  std::atomic<bool> ran = false;
  ServiceHost host(ServiceHostSettings{.handle_signals = false,
                                       .health_file = (dir_ / "missing" / "health.json").string()});
  host.add("relay", [&](std::stop_token) { ran = true; });
  try {
    host.run();
    ADD_FAILURE() << "run() accepted a health file it cannot write";
  } catch (const InfrastructureError& e) {
    EXPECT_NE(std::string(e.what()).find("missing/health.json"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(ran);
  EXPECT_FALSE(host.health().running);
}

TEST_F(HostHealthFile, RefusesAnIntervalThatIsNotPositive) {
  EXPECT_THROW(ServiceHost(ServiceHostSettings{.health_file = path_, .health_interval = 0ms}),
               ConfigurationError);
}

TEST_F(HostHealthFile, CarriesAnyErrorTextWholeAsJson) {
  HostHealth health{.running = true, .healthy = false, .loops = {}};
  health.loops.push_back(LoopHealth{.name = "billing",
                                    .state = LoopState::kRestarting,
                                    .restarts = 3,
                                    .last_error = "said \"no\"\n\tthen \xff\x01 and \\",
                                    .last_error_at = Timestamp(std::chrono::seconds(1))});
  const nlohmann::json parsed =
      nlohmann::json::parse(core::host_health_json(health, Timestamp(std::chrono::seconds(2)), 7));
  EXPECT_EQ(parsed["pid"], 7);
  EXPECT_EQ(parsed["written_at_us"], 2'000'000);
  EXPECT_EQ(parsed["written_at"], "1970-01-01T00:00:02.000000Z");
  EXPECT_EQ(parsed["loops"][0]["state"], "restarting");
  EXPECT_EQ(parsed["loops"][0]["restarts"], 3);
  EXPECT_EQ(parsed["loops"][0]["last_error"], "said \"no\"\n\tthen \\xFF\x01 and \\");
}

}  // namespace
}  // namespace docket
