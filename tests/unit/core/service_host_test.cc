// ServiceHost: runs every loop on its own thread until stop(), restarts a loop that
// throws with backoff and reports it in health(), refuses what could never run, and, in
// a process of its own, stops on SIGTERM with every loop returned.
#include "docket/core/service_host.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <latch>
#include <stdexcept>
#include <thread>

#include "docket/core/error.h"

namespace docket {
namespace {

using namespace std::chrono_literals;

// A loop that counts down `started` once and runs until stopped.
struct WaitingLoop {
  std::latch& started;
  std::atomic<int>& returned;
  void run(std::stop_token stop) {
    started.count_down();
    std::mutex mutex;
    std::condition_variable_any cv;
    std::unique_lock lock(mutex);
    cv.wait(lock, stop, [] { return false; });
    ++returned;
  }
};

TEST(ServiceHost, RunsEveryLoopUntilStopped) {
  std::latch started(2);
  std::atomic<int> returned = 0;
  WaitingLoop relay{started, returned};
  WaitingLoop consumer{started, returned};
  ServiceHost host(ServiceHostSettings{.handle_signals = false});
  host.add("relay", relay).add("billing", consumer);
  std::thread stopper([&] {
    started.wait();  // both loops are in their run()
    const HostHealth health = host.health();
    EXPECT_TRUE(health.running);
    EXPECT_TRUE(health.healthy);
    host.stop();
  });
  host.run();
  stopper.join();
  EXPECT_EQ(returned, 2) << "run() returns once every loop returned";
  const HostHealth after = host.health();
  EXPECT_FALSE(after.running);
  ASSERT_EQ(after.loops.size(), 2U);
  EXPECT_EQ(after.loops[0].name, "relay");
  EXPECT_EQ(after.loops[0].state, LoopState::kStopped);
  EXPECT_EQ(after.loops[1].state, LoopState::kStopped);
}

TEST(ServiceHost, ALoopThatThrowsIsRestartedAndReportedWhileTheOthersRun) {
  std::atomic<int> attempts = 0;
  std::latch failed_twice(1);
  std::latch third_started(1);
  ServiceHost host(
      ServiceHostSettings{.handle_signals = false, .restart_base = 1ms, .restart_cap = 4ms});
  host.add("projections", [&](std::stop_token stop) {
    const int attempt = ++attempts;
    if (attempt <= 2) {
      if (attempt == 2) {
        failed_twice.count_down();
      }
      throw std::runtime_error("store unreachable (attempt " + std::to_string(attempt) + ")");
    }
    third_started.count_down();
    std::mutex mutex;
    std::condition_variable_any cv;
    std::unique_lock lock(mutex);
    cv.wait(lock, stop, [] { return false; });
  });
  std::thread watcher([&] {
    third_started.wait();
    const HostHealth health = host.health();
    ASSERT_EQ(health.loops.size(), 1U);
    EXPECT_EQ(health.loops[0].restarts, 2U);
    EXPECT_EQ(health.loops[0].last_error, "store unreachable (attempt 2)");
    EXPECT_TRUE(health.loops[0].last_error_at.has_value());
    host.stop();
  });
  host.run();
  watcher.join();
  EXPECT_EQ(attempts, 3);
}

TEST(ServiceHost, ALoopThatReturnsOnItsOwnIsFinishedAndUnhealthy) {
  std::latch done(1);
  ServiceHost host(ServiceHostSettings{.handle_signals = false});
  host.add("one-shot", [&](std::stop_token) { done.count_down(); });
  std::thread watcher([&] {
    done.wait();
    // The state is set right after the loop returns: wait for it, bounded.
    const auto deadline = std::chrono::steady_clock::now() + 10s;
    while (host.health().loops[0].state != LoopState::kFinished &&
           std::chrono::steady_clock::now() < deadline) {
      std::this_thread::yield();
    }
    EXPECT_EQ(host.health().loops[0].state, LoopState::kFinished);
    EXPECT_FALSE(host.health().healthy);
    host.stop();
  });
  host.run();
  watcher.join();
}

TEST(ServiceHost, RefusesWhatCouldNeverRun) {
  EXPECT_THROW(ServiceHost(ServiceHostSettings{.restart_base = 0ms}), ConfigurationError);
  EXPECT_THROW(ServiceHost(ServiceHostSettings{.restart_base = 10ms, .restart_cap = 5ms}),
               ConfigurationError);
  ServiceHost host(ServiceHostSettings{.handle_signals = false});
  EXPECT_THROW(host.run(), ConfigurationError) << "no loop";
  host.add("relay", [](std::stop_token) {});
  EXPECT_THROW(host.add("relay", [](std::stop_token) {}), ConfigurationError);
  EXPECT_THROW(host.add("", [](std::stop_token) {}), ConfigurationError);
  EXPECT_THROW(host.add("empty", ServiceHost::Loop{}), ConfigurationError);
  host.stop();
  host.run();  // stopped before it ran: returns at once
  EXPECT_THROW(host.run(), ConfigurationError) << "a host runs once";
}

// In a child process, as a service's main runs it: SIGTERM from outside stops the host,
// every loop returns and run() comes back.
TEST(ServiceHost, SigtermStopsAServiceAndEveryLoopReturns) {
  int ready[2];
  ASSERT_EQ(pipe(ready), 0);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    close(ready[0]);
    std::latch started(2);
    std::atomic<int> returned = 0;
    WaitingLoop relay{started, returned};
    WaitingLoop consumer{started, returned};
    ServiceHost host;
    host.add("relay", relay).add("billing", consumer);
    std::atomic<bool> told = false;
    host.add("ready", [&](std::stop_token stop) {
      started.wait();
      if (!told.exchange(true)) {
        const char byte = 'r';
        (void)!write(ready[1], &byte, 1);
      }
      std::mutex mutex;
      std::condition_variable_any cv;
      std::unique_lock lock(mutex);
      cv.wait(lock, stop, [] { return false; });
    });
    host.run();
    _exit(returned == 2 && host.stop_signal() == SIGTERM ? 0 : 3);
  }
  close(ready[1]);
  char byte = 0;
  ASSERT_EQ(read(ready[0], &byte, 1), 1) << "the child's loops never started";
  close(ready[0]);
  ASSERT_EQ(kill(child, SIGTERM), 0);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status)) << "ended by a signal: "
                                 << (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  EXPECT_EQ(WEXITSTATUS(status), 0) << "3: a loop did not return or another signal stopped it";
}

}  // namespace
}  // namespace docket
