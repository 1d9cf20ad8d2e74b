// docket metrics on every provider of the build that registers a scratch database
// (tests/support/scratch_database.h): the store gauges of a store holding known counts
// (observability/known_counts.h), scraped once over HTTP from the tool running as a
// child process on a free loopback port, parsed, then the tool stopped by SIGTERM (exit
// 0). And its refusals: a bad --listen (exit 2), a port in use (exit 1), a store private
// to the process (exit 1); the store URL's password never printed.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <stdexcept>
#include <string>
#include <vector>

#include "conformance/fixture_registry.h"
#include "docket/stores/printable_store_url.h"
#include "observability/exposition.h"
#include "observability/known_counts.h"
#include "scratch_stores.h"
#include "support/scratch_database.h"
#include "tool_runner.h"

extern char** environ;

namespace docket::testing {
namespace {
namespace metrics_command_test {

// `docket metrics ...` running as a child process, its stdout read through a pipe.
// Destroying it kills the child (SIGKILL) if it still runs.
class RunningMetrics {
 public:
  explicit RunningMetrics(const std::vector<std::string>& args) {
    int fds[2];
    if (::pipe(fds) != 0) {
      throw std::runtime_error("pipe failed");
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&actions, fds[0]);
    std::vector<std::string> storage{DOCKET_TOOL_PATH, "metrics"};
    storage.insert(storage.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& arg : storage) {
      argv.push_back(arg.data());
    }
    argv.push_back(nullptr);
    const int spawned =
        posix_spawn(&pid_, DOCKET_TOOL_PATH, &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(fds[1]);
    out_ = fds[0];
    if (spawned != 0) {
      ::close(out_);
      throw std::runtime_error("cannot start " + std::string(DOCKET_TOOL_PATH));
    }
  }
  ~RunningMetrics() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
    ::close(out_);
  }
  RunningMetrics(const RunningMetrics&) = delete;
  RunningMetrics& operator=(const RunningMetrics&) = delete;

  // Reads stdout until it holds `marker` (true) or ends, or a minute passes (false).
  bool wait_for(const std::string& marker) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(1);
    while (stdout_.find(marker) == std::string::npos) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      pollfd ready{.fd = out_, .events = POLLIN, .revents = 0};
      if (left.count() <= 0 || ::poll(&ready, 1, static_cast<int>(left.count())) <= 0) {
        return false;
      }
      char buffer[4096];
      const ssize_t n = ::read(out_, buffer, sizeof buffer);
      if (n <= 0) {
        return false;
      }
      stdout_.append(buffer, static_cast<std::size_t>(n));
    }
    return true;
  }

  // Sends SIGTERM and waits: the exit status (-1 when it did not exit normally).
  int stop() {
    ::kill(pid_, SIGTERM);
    wait_for("stopped by signal");
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

  const std::string& out() const { return stdout_; }

 private:
  pid_t pid_ = -1;
  int out_ = -1;
  std::string stdout_;
};

// The URL the tool printed it serves at.
std::string served_url(const std::string& out) {
  const std::size_t start = out.find("http://");
  if (start == std::string::npos) {
    throw std::runtime_error("no URL in: " + out);
  }
  return out.substr(start, out.find(' ', start) - start);
}

}  // namespace metrics_command_test

using metrics_command_test::RunningMetrics;

class MetricsCommandTest : public ::testing::TestWithParam<test_support::ScratchDatabaseCase> {};

TEST_P(MetricsCommandTest, ServesTheStoreGaugesOfAStoreHoldingKnownCounts) {
  const auto database = GetParam().make();
  const KnownCounts written = write_known_counts(database->url());
  ASSERT_TRUE(written.outbox || written.claim_inbox) << "the provider offers neither store";
  RunningMetrics tool({"--store", database->url(), "--listen", "127.0.0.1:0"});
  ASSERT_TRUE(tool.wait_for("/metrics")) << tool.out();
  const std::string url = metrics_command_test::served_url(tool.out());
  EXPECT_EQ(url.rfind("http://127.0.0.1:", 0), 0U) << url;
  const Exposition scraped = parse_exposition(http_get(url));
  expect_store_gauges(scraped, written);
  // Every docket family is typed and described; labels never carry the store URL.
  for (const auto& [name, family] : scraped) {
    if (name.rfind("docket_", 0) != 0) {
      continue;
    }
    EXPECT_EQ(family.type, "gauge") << name;
    EXPECT_FALSE(family.help.empty()) << name;
    for (const ExpositionSample& sample : family.samples) {
      for (const auto& [label, value] : sample.labels) {
        EXPECT_EQ(value.find(database->url()), std::string::npos) << name;
      }
    }
  }
  const std::string printable = printable_store_url(database->url());
  EXPECT_NE(tool.out().find(printable), std::string::npos) << tool.out();
  if (printable != database->url()) {
    EXPECT_EQ(tool.out().find(database->url()), std::string::npos) << "credentials printed";
  }
  EXPECT_EQ(tool.stop(), 0) << tool.out();
}

INSTANTIATE_TEST_SUITE_P(Providers, MetricsCommandTest,
                         ::testing::ValuesIn(scratch_databases_offering(
                             [](const providers::ProviderRegistration& provider) {
                               return provider.outbox != nullptr;
                             })),
                         [](const auto& test_info) { return test_info.param.name; });

TEST(MetricsCommand, RefusesABadListenAddressBeforeOpeningAnything) {
  for (const char* listen : {"9464", "127.0.0.1", "127.0.0.1:", "127.0.0.1:65536", "127.0.0.1:-1",
                             "example.com:9464", "127.0.0.1:94x", "[::1:9464"}) {
    const ToolRun run =
        run_docket({"metrics", "--store", "sqlite:///nonexistent/dir/x.db", "--listen", listen});
    EXPECT_EQ(run.exit_code, 2) << listen << ": " << describe(run);
    EXPECT_NE(run.err.find("metrics: --listen"), std::string::npos) << describe(run);
  }
}

TEST(MetricsCommand, APortInUseIsAClearErrorAndExitOne) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  ASSERT_EQ(::listen(fd, 1), 0);
  socklen_t length = sizeof address;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
  const std::string listen = "127.0.0.1:" + std::to_string(ntohs(address.sin_port));
  const std::string path = ::testing::TempDir() + "docket-metrics-in-use.db";
  const ToolRun run = run_docket_within(
      {"metrics", "--store", "sqlite://" + path, "--listen", listen}, std::chrono::seconds(60));
  ::close(fd);
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_NE(
      run.err.find("cannot listen on " + listen + ": port " + listen.substr(10) + " is in use"),
      std::string::npos)
      << describe(run);
  for (const char* suffix : {"", "-wal", "-shm"}) {
    ::unlink((path + suffix).c_str());
  }
}

TEST(MetricsCommand, AStoreThatIsDownIsRefusedWithoutItsPassword) {
  const ToolRun run =
      run_docket_within({"metrics", "--store", "postgresql://app:Metrics-Secret-9@127.0.0.1:1/db",
                         "--listen", "127.0.0.1:0"},
                        std::chrono::seconds(60));
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_EQ(run.out.find("Metrics-Secret-9"), std::string::npos) << describe(run);
  EXPECT_EQ(run.err.find("Metrics-Secret-9"), std::string::npos) << describe(run);
  EXPECT_NE(run.err.find("docket: "), std::string::npos) << describe(run);
}

TEST(MetricsCommand, RefusesAStorePrivateToTheProcess) {
  const ToolRun run = run_docket({"metrics", "--store", "memory:", "--listen", "127.0.0.1:0"});
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_NE(run.err.find("private to the process"), std::string::npos) << describe(run);
}

}  // namespace
}  // namespace docket::testing
