// Consumer checkpoints: upsert per (tenant, consumer), own transaction, refusals.
#include "docket/tenant.h"
#include "suite.h"

namespace docket::conformance {
namespace {

class CheckpointTest : public InboxConformance {};

TEST_P(CheckpointTest, SecondSetReplacesTheFirstInOneRow) {
  auto& checkpoints = store_->checkpoints();
  EXPECT_EQ(checkpoints.get("feed-reader"), std::nullopt);
  checkpoints.set("feed-reader", "cursor-1");
  checkpoints.set("feed-reader", "cursor-2");
  EXPECT_EQ(checkpoints.get("feed-reader"), "cursor-2");
  EXPECT_EQ(fixture_->count_rows(*store_, kConsumerCheckpointsTable), 1);
}

TEST_P(CheckpointTest, ConsumersAndTenantsHaveTheirOwnPositions) {
  auto& checkpoints = store_->checkpoints();
  checkpoints.set("a", "1");
  checkpoints.set("b", "2");
  {
    TenantScope acme(TenantId("acme"));
    EXPECT_EQ(checkpoints.get("a"), std::nullopt);
    checkpoints.set("a", "acme-1");
    EXPECT_EQ(checkpoints.get("a"), "acme-1");
  }
  EXPECT_EQ(checkpoints.get("a"), "1");
  EXPECT_EQ(checkpoints.get("b"), "2");
}

TEST_P(CheckpointTest, BlankOrInvalidValuesAreRefusedAndNothingIsWritten) {
  auto& checkpoints = store_->checkpoints();
  EXPECT_THROW(checkpoints.set("", "cursor-1"), InvalidInputError);
  EXPECT_THROW(checkpoints.set("  ", "cursor-1"), InvalidInputError);
  EXPECT_THROW(checkpoints.set("reader", ""), InvalidInputError);
  EXPECT_THROW(checkpoints.set("reader", " \t"), InvalidInputError);
  EXPECT_THROW(checkpoints.set("reader", "\xFF"), InvalidInputError);
  EXPECT_THROW(checkpoints.set(std::string(kMaxConsumerIdChars + 1, 'c'), "x"), InvalidInputError);
  EXPECT_THROW(checkpoints.get(""), InvalidInputError);
  EXPECT_EQ(fixture_->count_rows(*store_, kConsumerCheckpointsTable), 0);
}

INSTANTIATE_TEST_SUITE_P(AllProviders, CheckpointTest, ::testing::ValuesIn(all_providers()),
                         provider_name);

}  // namespace
}  // namespace docket::conformance
