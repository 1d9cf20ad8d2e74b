// Eight real threads append to one stream, retrying on conflict: the stream ends with
// a gap-free version sequence, every event exactly once, each append's events
// contiguous and each thread's appends in its own order.
#include <cstdio>
#include <latch>
#include <map>
#include <thread>

#include "suite.h"

namespace docket::conformance::eventsourcing {
namespace {

using EventStoreRace = StoreConformance;

constexpr int kThreads = 8;
constexpr int kAppendsPerThread = 40;

// Events in a thread's append `a`: every third append carries three.
constexpr int events_in_append(int a) {
  return a % 3 == 0 ? 3 : 1;
}

constexpr int events_per_thread() {
  int total = 0;
  for (int a = 0; a < kAppendsPerThread; ++a) {
    total += events_in_append(a);
  }
  return total;
}

// "t3 a17 e1/2": thread 3, its append 17, event 1 of 2.
std::string payload(int thread, int append, int index, int count) {
  return "t" + std::to_string(thread) + " a" + std::to_string(append) + " e" +
         std::to_string(index) + "/" + std::to_string(count);
}

TEST_P(EventStoreRace, EightWritersWithRetryLoseNothingAndLeaveNoGap) {
  const StreamId stream = account("contended");
  std::latch start(kThreads);
  std::vector<std::int64_t> conflicts(kThreads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      start.arrive_and_wait();
      ExpectedVersion expected = ExpectedVersion::no_stream();
      for (int a = 0; a < kAppendsPerThread; ++a) {
        const int count = events_in_append(a);  // multi-event appends race too
        std::vector<NewEvent> batch;
        for (int i = 0; i < count; ++i) {
          batch.push_back(event("raced", payload(t, a, i, count)));
        }
        for (;;) {
          const AppendResult result = events_->append(stream, expected, batch);
          if (result.succeeded()) {
            expected = ExpectedVersion::exactly(result.success().new_version);
            break;
          }
          ++conflicts[static_cast<std::size_t>(t)];
          expected = ExpectedVersion::from_value(result.conflict().actual_version);
        }
      }
    });
  }
  for (auto& thread : threads) {
    thread.join();
  }

  const std::vector<RecordedEvent> loaded = events_->load(stream);
  ASSERT_EQ(loaded.size(), static_cast<std::size_t>(kThreads * events_per_thread()));
  std::map<std::string, int> seen;
  std::vector<int> last_append(kThreads, -1);
  for (std::size_t v = 0; v < loaded.size(); ++v) {
    ASSERT_EQ(loaded[v].version, static_cast<std::int64_t>(v));
    ++seen[loaded[v].payload];
    int thread = 0, append = 0, index = 0, count = 0;
    ASSERT_EQ(
        std::sscanf(loaded[v].payload.c_str(), "t%d a%d e%d/%d", &thread, &append, &index, &count),
        4);
    if (index == 0) {
      EXPECT_GT(append, last_append[static_cast<std::size_t>(thread)]) << "thread order";
      last_append[static_cast<std::size_t>(thread)] = append;
      for (int i = 1; i < count; ++i) {  // the append's other events follow directly
        ASSERT_LT(v + static_cast<std::size_t>(i), loaded.size());
        EXPECT_EQ(loaded[v + static_cast<std::size_t>(i)].payload,
                  payload(thread, append, i, count));
      }
    }
  }
  EXPECT_EQ(seen.size(), loaded.size()) << "an event was stored twice";
  expect_store_total(loaded.size());
}

INSTANTIATE_TEST_SUITE_P(Providers, EventStoreRace, ::testing::ValuesIn(event_providers()),
                         provider_name);

}  // namespace
}  // namespace docket::conformance::eventsourcing
