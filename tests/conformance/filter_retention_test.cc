// filter_unprocessed (anti-join, input order) and retention of dedup rows.
#include "docket/core/tenant.h"
#include "suite.h"

namespace docket::conformance {
namespace {

class FilterRetentionTest : public InboxConformance {};

TEST_P(FilterRetentionTest, FilterKeepsInputOrderAndDropsProcessed) {
  const auto inbox = dispatcher("billing");
  inbox.dispatch(ping("id-1"));
  inbox.dispatch(ping("id-3"));
  const std::vector<std::string> query{"id-4", "id-3", "id-2", "id-1", "id-0"};
  EXPECT_EQ(store_->filter_unprocessed("billing", query),
            (std::vector<std::string>{"id-4", "id-2", "id-0"}));
  EXPECT_EQ(store_->filter_unprocessed("shipping", query), query);
  EXPECT_EQ(dedup_rows(), 2) << "a pure read";
  TenantScope acme(TenantId("acme"));
  EXPECT_EQ(store_->filter_unprocessed("billing", query), query);
}

TEST_P(FilterRetentionTest, FilterRefusesBadArguments) {
  const std::vector<std::string> ids{"ok", ""};
  EXPECT_THROW(store_->filter_unprocessed("billing", ids), InvalidInputError);
  const std::vector<std::string> fine{"ok"};
  EXPECT_THROW(store_->filter_unprocessed("", fine), InvalidInputError);
  EXPECT_THROW(store_->filter_unprocessed(std::string(kMaxConsumerIdChars + 1, 'c'), fine),
               InvalidInputError);
  EXPECT_EQ(store_->filter_unprocessed("billing", {}), std::vector<std::string>{});
}

TEST_P(FilterRetentionTest, RetentionDeletesOnlyOldRowsInBatches) {
  const auto inbox = dispatcher("billing");
  for (int i = 0; i < 5; ++i) {
    inbox.dispatch(ping("old-" + std::to_string(i)));
  }
  const Timestamp cutoff = clock_.now() + std::chrono::minutes(30);
  clock_.advance(std::chrono::hours(1));
  for (int i = 0; i < 3; ++i) {
    inbox.dispatch(ping("new-" + std::to_string(i)));
  }
  EXPECT_EQ(store_->purge_processed_before(cutoff, 2), 5u);
  EXPECT_EQ(dedup_rows(), 3);
  EXPECT_EQ(store_->purge_processed_before(cutoff, 2), 0u);
  const std::vector<std::string> ids{"old-0", "new-0"};
  EXPECT_EQ(store_->filter_unprocessed("billing", ids), std::vector<std::string>{"old-0"});
  EXPECT_THROW(store_->purge_processed_before(cutoff, 0), InvalidInputError);
}

INSTANTIATE_TEST_SUITE_P(AllProviders, FilterRetentionTest, ::testing::ValuesIn(all_providers()),
                         provider_name);

}  // namespace
}  // namespace docket::conformance
