// InboxStore::purge_consumer: the dedup rows of one consumer (of one tenant, or of
// every tenant) deleted in batches, whenever processed, and no other consumer's; a
// message whose row is gone is dispatched to that consumer again (what a projection
// rebuild relies on).
#include <atomic>
#include <string>
#include <vector>

#include "docket/core/tenant.h"
#include "suite.h"

namespace docket::conformance {
namespace {

class PurgeConsumerTest : public InboxConformance {
 protected:
  // Dispatches ping `id` to `inbox` under `tenant`.
  static void dispatch_in(const InboxDispatcher& inbox, const TenantId& tenant,
                          const std::string& id) {
    const TenantScope scope(tenant);
    inbox.dispatch(ping(id));
  }

  // Whether `consumer` has processed `id` under `tenant`.
  bool processed(const TenantId& tenant, const std::string& consumer, const std::string& id) {
    const TenantScope scope(tenant);
    const std::vector<std::string> ids{id};
    return store_->filter_unprocessed(consumer, ids).empty();
  }
};

TEST_P(PurgeConsumerTest, DeletesOneConsumersRowsOfEveryTenantInBatches) {
  const auto projector = dispatcher("projector");
  const auto mailer = dispatcher("mailer");
  for (int i = 0; i < 5; ++i) {
    dispatch_in(projector, TenantId("acme"), "a-" + std::to_string(i));
  }
  dispatch_in(projector, TenantId("globex"), "g-0");
  clock_.advance(std::chrono::hours(24));  // processed at any time: every row goes
  dispatch_in(projector, TenantId("globex"), "g-1");
  dispatch_in(mailer, TenantId("acme"), "a-0");
  ASSERT_EQ(dedup_rows(), 8);

  std::vector<std::uint64_t> reported;
  EXPECT_EQ(store_->purge_consumer("projector", std::nullopt, 3,
                                   [&](std::uint64_t total) { reported.push_back(total); }),
            7u);
  EXPECT_EQ(dedup_rows(), 1);
  EXPECT_FALSE(processed(TenantId("acme"), "projector", "a-0"));
  EXPECT_FALSE(processed(TenantId("globex"), "projector", "g-1"));
  EXPECT_TRUE(processed(TenantId("acme"), "mailer", "a-0"));
  ASSERT_FALSE(reported.empty());
  EXPECT_EQ(reported.back(), 7u);
  EXPECT_GE(reported.size(), 3u) << "7 rows in batches of 3";
  EXPECT_EQ(store_->purge_consumer("projector", std::nullopt, 3), 0u);
}

TEST_P(PurgeConsumerTest, WithATenantDeletesOnlyThatTenantsRows) {
  const auto projector = dispatcher("projector");
  dispatch_in(projector, TenantId("acme"), "m-1");
  dispatch_in(projector, TenantId("acme"), "m-2");
  dispatch_in(projector, TenantId("globex"), "m-1");
  projector.dispatch(ping("m-1"));  // outside any tenant
  EXPECT_EQ(store_->purge_consumer("projector", TenantId("acme")), 2u);
  EXPECT_EQ(dedup_rows(), 2);
  EXPECT_FALSE(processed(TenantId("acme"), "projector", "m-1"));
  EXPECT_TRUE(processed(TenantId("globex"), "projector", "m-1"));
  EXPECT_TRUE(processed(TenantId::untenanted(), "projector", "m-1"));
  EXPECT_EQ(store_->purge_consumer("projector", TenantId::untenanted()), 1u);
  EXPECT_TRUE(processed(TenantId("globex"), "projector", "m-1"));
  EXPECT_EQ(store_->purge_consumer("nobody", std::nullopt), 0u);
  EXPECT_EQ(dedup_rows(), 1);
}

TEST_P(PurgeConsumerTest, AMessageWhoseRowIsGoneIsHandledAgain) {
  std::atomic<int> handled = 0;
  const auto projector = dispatcher("projector", [&](const Ping&, HandlerContext&) { ++handled; });
  projector.dispatch(ping("m-1"));
  projector.dispatch(ping("m-1"));
  EXPECT_EQ(handled, 1);
  EXPECT_EQ(store_->purge_consumer("projector", std::nullopt), 1u);
  projector.dispatch(ping("m-1"));
  EXPECT_EQ(handled, 2);
}

TEST_P(PurgeConsumerTest, BadArgumentsAreRefusedAndNothingIsDeleted) {
  dispatcher("projector").dispatch(ping("m-1"));
  EXPECT_THROW(store_->purge_consumer("", std::nullopt), InvalidInputError);
  EXPECT_THROW(store_->purge_consumer(" ", std::nullopt), InvalidInputError);
  EXPECT_THROW(store_->purge_consumer(std::string(kMaxConsumerIdChars + 1, 'c'), std::nullopt),
               InvalidInputError);
  EXPECT_THROW(store_->purge_consumer("projector", std::nullopt, 0), InvalidInputError);
  EXPECT_EQ(dedup_rows(), 1);
}

INSTANTIATE_TEST_SUITE_P(AllProviders, PurgeConsumerTest, ::testing::ValuesIn(all_providers()),
                         provider_name);

}  // namespace
}  // namespace docket::conformance
