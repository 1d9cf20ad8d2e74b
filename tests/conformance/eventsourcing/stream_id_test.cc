// StreamId as a value: copies share their terms yet compare, order and outlive one
// another as independent values would, on any thread.
#include "docket/eventsourcing/stream_id.h"

#include <gtest/gtest.h>

#include <latch>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace docket {
namespace {

StreamId stream(std::string_view tenant, std::string_view type, std::string_view id) {
  return StreamId(TenantId(tenant), type, id);
}

TEST(StreamIdValue, CopiesShareTheTermsAndStayEqual) {
  const StreamId original = stream("acme", std::string(40, 't'), "A-1");
  const StreamId copy = original;  // NOLINT(performance-unnecessary-copy-initialization)
  EXPECT_EQ(copy, original);
  EXPECT_EQ(&copy.aggregate_type(), &original.aggregate_type());  // shared, not copied
  StreamId assigned = stream("other", "x", "y");
  assigned = original;
  EXPECT_EQ(assigned, original);
  EXPECT_EQ(assigned.tenant().value(), "acme");
  // There is no moved-from state: a "moved" StreamId is still the same identity.
  StreamId source = original;
  const StreamId moved = std::move(source);
  EXPECT_EQ(moved, original);
  EXPECT_EQ(source, original);  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(source.aggregate_id(), "A-1");
}

TEST(StreamIdValue, EqualityAndOrderAreByTermsTenantFirst) {
  EXPECT_EQ(stream("acme", "account", "A-1"), stream("acme", "account", "A-1"));
  EXPECT_NE(stream("acme", "account", "A-1"), stream("beta", "account", "A-1"));
  EXPECT_NE(stream("acme", "account", "A-1"), stream("acme", "order", "A-1"));
  EXPECT_NE(stream("acme", "account", "A-1"), stream("acme", "account", "A-2"));
  EXPECT_LT(stream("acme", "zzz", "zzz"), stream("beta", "aaa", "aaa"));
  EXPECT_LT(stream("acme", "account", "zzz"), stream("acme", "order", "aaa"));
  EXPECT_LT(stream("acme", "account", "A-1"), stream("acme", "account", "A-2"));
  EXPECT_EQ(stream("acme", "account", "A-1") <=> stream("acme", "account", "A-1"),
            std::strong_ordering::equal);
}

TEST(StreamIdValue, CopiesAreMadeAndDroppedOnManyThreadsAtOnce) {
  const StreamId original = stream("acme", std::string(100, 'a'), std::string(100, 'i'));
  constexpr int kThreads = 4;
  constexpr int kCopies = 20'000;
  std::latch start(kThreads);
  std::vector<std::thread> threads;
  std::vector<int> equal(kThreads, 0);
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      start.arrive_and_wait();
      std::vector<StreamId> copies(kCopies / 2, original);
      for (int i = 0; i < kCopies / 2; ++i) {
        const StreamId copy = copies[static_cast<std::size_t>(i)];
        equal[static_cast<std::size_t>(t)] += copy == original ? 1 : 0;
      }
    });
  }
  for (std::thread& thread : threads) {
    thread.join();
  }
  for (const int n : equal) {
    EXPECT_EQ(n, kCopies / 2);
  }
  EXPECT_EQ(original.aggregate_type(), std::string(100, 'a'));
  EXPECT_EQ(original.aggregate_id(), std::string(100, 'i'));
}

}  // namespace
}  // namespace docket
