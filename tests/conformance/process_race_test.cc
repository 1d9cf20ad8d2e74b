// 4 processes deliver the same 2,000 message ids to one shared database: exactly one
// processing each. The processes are forked, open the store by URL, and start together
// (each reports ready on a pipe; the parent then closes the "go" pipe).
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>

#include "docket/stores/open_store.h"
#include "suite.h"

namespace docket::conformance {
namespace {

class ProcessRaceTest : public InboxConformance {};

constexpr int kProcesses = 4;
constexpr int kMessages = 2000;

struct Counts {
  std::int64_t processed = 0;
  std::int64_t skipped = 0;
  std::int64_t failed = 0;
};

// The child's whole life; never returns.
[[noreturn]] void run_child(ProviderFixture& fixture, const std::string& url, int ready_fd,
                            int go_fd, int result_fd) {
  int code = 0;
  Counts counts;
  try {
    auto store = open_inbox_store(url);
    store->migrate();
    HandlerRegistry handlers;
    fixture.on_ping(handlers, [](const Ping&, HandlerContext& ctx) {
      return ctx.envelope().message_id + "@" + std::to_string(getpid());
    });
    const InboxDispatcher inbox(*store, InboxOptions("billing"), std::move(handlers));
    char byte = 'r';
    code = write(ready_fd, &byte, 1) == 1 ? 0 : 3;
    while (code == 0 && read(go_fd, &byte, 1) > 0) {
    }
    for (int i = 0; code == 0 && i < kMessages; ++i) {
      try {
        const auto outcome = inbox.dispatch(ping("m-" + std::to_string(i)));
        ++(outcome == DispatchOutcome::kProcessed ? counts.processed : counts.skipped);
      } catch (const std::exception&) {
        ++counts.failed;
      }
    }
  } catch (...) {
    code = 2;
  }
  if (write(result_fd, &counts, sizeof counts) != static_cast<ssize_t>(sizeof counts)) {
    code = 4;
  }
  _exit(code);
}

// On an early return (a failed assertion), releases and reaps the children so that none
// is left waiting for "go".
struct Reaper {
  int go_fd = -1;
  std::vector<pid_t> children;
  ~Reaper() {
    if (go_fd >= 0) {
      close(go_fd);
    }
    for (const pid_t pid : children) {
      kill(pid, SIGKILL);
      waitpid(pid, nullptr, 0);
    }
  }
};

TEST_P(ProcessRaceTest, FourProcessesSameIdsProcessEachOnce) {
  const std::string url = fixture_->shared_url().value();
  store_.reset();  // children must not share this process's connections
  std::array<int, 2> ready{}, go{}, result{};
  ASSERT_EQ(pipe(ready.data()), 0);
  ASSERT_EQ(pipe(go.data()), 0);
  ASSERT_EQ(pipe(result.data()), 0);
  Reaper reaper{.go_fd = go[1], .children = {}};
  for (int p = 0; p < kProcesses; ++p) {
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      close(go[1]);
      run_child(*fixture_, url, ready[1], go[0], result[1]);
    }
    reaper.children.push_back(pid);
  }
  close(ready[1]);
  close(go[0]);
  close(result[1]);
  char byte = 0;
  for (int p = 0; p < kProcesses; ++p) {
    ASSERT_EQ(read(ready[0], &byte, 1), 1) << "a child failed before it was ready";
  }
  close(go[1]);  // every child's read() returns 0: go
  reaper.go_fd = -1;
  Counts total;
  for (int p = 0; p < kProcesses; ++p) {
    Counts counts;
    ASSERT_EQ(read(result[0], &counts, sizeof counts), static_cast<ssize_t>(sizeof counts));
    total.processed += counts.processed;
    total.skipped += counts.skipped;
    total.failed += counts.failed;
  }
  while (!reaper.children.empty()) {
    const pid_t pid = reaper.children.back();
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    reaper.children.pop_back();
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "child status " << status;
  }
  close(ready[0]);
  close(result[0]);
  EXPECT_EQ(total.failed, 0);
  EXPECT_EQ(total.processed, kMessages);
  EXPECT_EQ(total.skipped, kMessages * (kProcesses - 1));
  store_ = open_inbox_store(url, clock_);
  EXPECT_EQ(effects(), kMessages);
  EXPECT_EQ(dedup_rows(), kMessages);
}

INSTANTIATE_TEST_SUITE_P(SharedStores, ProcessRaceTest,
                         ::testing::ValuesIn(multi_process_providers()), provider_name);

}  // namespace
}  // namespace docket::conformance
