// 8 threads deliver the same 2,000 message ids: exactly one processing each. Every
// 100th message's first handler execution throws, so failures propagate while other
// threads race on the same ids.
#include <barrier>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>

#include "suite.h"

namespace docket::conformance {
namespace {

class RaceTest : public InboxConformance {};

constexpr int kRaceThreads = 8;
constexpr int kRaceMessages = 2000;

TEST_P(RaceTest, EightThreadsSameIdsProcessEachOnce) {
  std::mutex mutex;
  std::set<std::string> attempted;
  const auto inbox = dispatcher("billing", [&](const Ping&, HandlerContext& ctx) {
    const std::string& id = ctx.envelope().message_id;
    if (std::stoi(id.substr(2)) % 100 == 0) {
      std::lock_guard lock(mutex);
      if (attempted.insert(id).second) {
        throw std::runtime_error("first attempt of " + id);
      }
    }
  });
  std::barrier start(kRaceThreads);
  std::atomic<int> processed = 0;
  std::atomic<int> skipped = 0;
  std::atomic<int> failed = 0;
  std::vector<std::string> unexpected(kRaceThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kRaceThreads; ++t) {
    threads.emplace_back([&, t] {
      start.arrive_and_wait();
      for (int i = 0; i < kRaceMessages; ++i) {
        try {
          const auto outcome = inbox.dispatch(ping("m-" + std::to_string(i)));
          (outcome == DispatchOutcome::kProcessed ? processed : skipped).fetch_add(1);
        } catch (const std::runtime_error& e) {
          if (std::string(e.what()) == "first attempt of m-" + std::to_string(i)) {
            failed.fetch_add(1);
          } else {
            unexpected[t] = e.what();
          }
        } catch (const std::exception& e) {
          unexpected[t] = e.what();
        }
      }
    });
  }
  for (auto& thread : threads) {
    thread.join();
  }
  for (const auto& error : unexpected) {
    EXPECT_EQ(error, "");
  }
  constexpr int kThrowing = kRaceMessages / 100;
  EXPECT_EQ(failed.load(), kThrowing);
  EXPECT_EQ(processed.load(), kRaceMessages);
  EXPECT_EQ(skipped.load(), kRaceMessages * kRaceThreads - kRaceMessages - kThrowing);
  EXPECT_EQ(effects(), kRaceMessages);
  EXPECT_EQ(dedup_rows(), kRaceMessages);
}

INSTANTIATE_TEST_SUITE_P(AllProviders, RaceTest, ::testing::ValuesIn(all_providers()),
                         provider_name);

}  // namespace
}  // namespace docket::conformance
