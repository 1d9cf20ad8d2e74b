// An inbox store's checkpoints (InboxStore::checkpoints()) live in its database, one
// row per (tenant, consumer) that the next set replaces, and refused input writes
// none. What every checkpoint store does is the checkpoint suite's
// (checkpoint/checkpoint_store_test.cc).
#include "docket/core/tenant.h"
#include "suite.h"

namespace docket::conformance {
namespace {

class CheckpointTest : public InboxConformance {};

TEST_P(CheckpointTest, TheInboxsCheckpointsAreOneRowPerTenantAndConsumerInItsDatabase) {
  auto& checkpoints = store_->checkpoints();
  EXPECT_THROW(checkpoints.set("", "cursor-1"), InvalidInputError);
  EXPECT_EQ(fixture_->count_rows(*store_, kConsumerCheckpointsTable), 0);
  checkpoints.set("feed-reader", "cursor-1");
  checkpoints.set("feed-reader", "cursor-2");
  EXPECT_EQ(checkpoints.get("feed-reader"), "cursor-2");
  EXPECT_EQ(fixture_->count_rows(*store_, kConsumerCheckpointsTable), 1);
  {
    TenantScope acme(TenantId("acme"));
    checkpoints.set("feed-reader", "acme-1");
  }
  EXPECT_EQ(fixture_->count_rows(*store_, kConsumerCheckpointsTable), 2);
}

INSTANTIATE_TEST_SUITE_P(AllProviders, CheckpointTest, ::testing::ValuesIn(all_providers()),
                         provider_name);

}  // namespace
}  // namespace docket::conformance
