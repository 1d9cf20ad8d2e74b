// Cleanup of processed entries: older than the cutoff only (strictly), one tenant or
// all, in bounded requests, and never an entry that is still pending.
#include "claim_suite.h"
#include "docket/core/error.h"

namespace docket::conformance {
namespace {

using std::chrono::seconds;

class ClaimCleanupTest : public ClaimConformance {
 protected:
  bool exists(const ClaimKey& k) { return store_->find(k).has_value(); }
};

TEST_P(ClaimCleanupTest, RemovesOnlyProcessedEntriesStrictlyOlderThanTheCutoff) {
  process(key("old"));
  clock_.advance(seconds(10));
  const Timestamp cutoff = clock_.now();
  process(key("at-cutoff"));
  clock_.advance(seconds(10));
  process(key("new"));

  EXPECT_EQ(store_->count_cleanable(std::nullopt, cutoff), 1u);
  EXPECT_EQ(store_->cleanup_all_tenants_processed(cutoff), 1u);
  EXPECT_FALSE(exists(key("old")));
  EXPECT_TRUE(exists(key("at-cutoff")));
  EXPECT_TRUE(exists(key("new")));
  EXPECT_EQ(store_->cleanup_all_tenants_processed(cutoff), 0u);
}

TEST_P(ClaimCleanupTest, NeverRemovesAnEntryThatIsNotProcessed) {
  store_->try_claim(key("received"), "w", kLease);
  store_->release(key("received"), token(key("received"), "w"));
  store_->try_claim(key("processing"), "w", kLease);
  store_->try_claim(key("failed"), "w", kLease);
  store_->mark_failed(key("failed"), token(key("failed"), "w"), {"boom", clock_.now()});
  store_->try_claim(key("expired"), "w", seconds(1));
  clock_.advance(std::chrono::hours(24 * 365));

  EXPECT_EQ(store_->count_cleanable(std::nullopt, clock_.now()), 0u);
  EXPECT_EQ(store_->cleanup_all_tenants_processed(clock_.now()), 0u);
  EXPECT_EQ(store_->cleanup_processed(TenantId("acme"), clock_.now()), 0u);
  for (const char* id : {"received", "processing", "failed", "expired"}) {
    EXPECT_TRUE(exists(key(id))) << id;
  }
}

TEST_P(ClaimCleanupTest, OneTenantsCleanupLeavesTheOthers) {
  process(key("a-1", "acme"));
  process(key("a-2", "acme"));
  process(key("g-1", "globex"));
  process(ClaimKey(TenantId::untenanted(), "u-1", "billing.Invoice"));
  clock_.advance(seconds(1));

  EXPECT_EQ(store_->count_cleanable(TenantId("acme"), clock_.now()), 2u);
  EXPECT_EQ(store_->cleanup_processed(TenantId("acme"), clock_.now()), 2u);
  EXPECT_FALSE(exists(key("a-1", "acme")));
  EXPECT_TRUE(exists(key("g-1", "globex")));
  EXPECT_EQ(store_->cleanup_processed(TenantId::untenanted(), clock_.now()), 1u);
  EXPECT_EQ(store_->cleanup_all_tenants_processed(clock_.now()), 1u);
  EXPECT_EQ(store_->counts(std::nullopt), ClaimCounts{});
}

TEST_P(ClaimCleanupTest, WorksInBoundedBatchesAndReportsProgress) {
  for (int i = 0; i < 10; ++i) {
    process(key("m-" + std::to_string(i)));
  }
  store_->try_claim(key("pending"), "w", kLease);
  clock_.advance(seconds(1));
  std::vector<std::uint64_t> progress;
  const std::uint64_t removed = store_->cleanup_all_tenants_processed(
      clock_.now(), 3, [&](std::uint64_t so_far) { progress.push_back(so_far); });
  EXPECT_EQ(removed, 10u);
  EXPECT_EQ(progress, (std::vector<std::uint64_t>{3, 6, 9, 10}));
  EXPECT_TRUE(exists(key("pending")));
}

TEST_P(ClaimCleanupTest, ABatchSizeOutsideTheStoresRangeIsRefused) {
  process(key("m-1"));
  clock_.advance(seconds(1));
  EXPECT_THROW(store_->cleanup_all_tenants_processed(clock_.now(), 0), InvalidInputError);
  const std::size_t limit = store_->capabilities().max_writes_per_commit;
  const std::size_t beyond = (limit == 0 ? 100'000 : limit) + 1;
  EXPECT_THROW(store_->cleanup_processed(TenantId("acme"), clock_.now(), beyond),
               InvalidInputError);
  EXPECT_TRUE(exists(key("m-1")));
}

INSTANTIATE_TEST_SUITE_P(Providers, ClaimCleanupTest, ::testing::ValuesIn(all_claim_providers()),
                         claim_provider_name);

}  // namespace
}  // namespace docket::conformance
