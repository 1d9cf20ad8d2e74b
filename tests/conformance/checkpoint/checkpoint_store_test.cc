// The checkpoint store conformance suite: a position per (ambient tenant, consumer),
// replaced by the next set, durable when set returns so that another store on the
// database reads it, and bad input refused with nothing written.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "conformance/checkpoint/checkpoint_fixture.h"
#include "conformance/fixture_registry.h"
#include "docket/core/error.h"
#include "docket/core/tenant.h"
#include "docket/inbox/inbox_options.h"

namespace docket::conformance {
namespace {

std::string checkpoint_case_name(const ::testing::TestParamInfo<CheckpointCase>& param_info) {
  return param_info.param.name;
}

class CheckpointConformance : public ::testing::TestWithParam<CheckpointCase> {
 protected:
  void SetUp() override {
    fixture_ = GetParam().make();
    store_ = fixture_->open(clock_);
  }

  ManualClock clock_{Timestamp(std::chrono::seconds(1'800'000'000))};
  std::unique_ptr<CheckpointFixture> fixture_;
  std::unique_ptr<CheckpointStore> store_;
};

TEST_P(CheckpointConformance, TheNextSetReplacesThePosition) {
  EXPECT_EQ(store_->get("feed-reader"), std::nullopt);
  store_->set("feed-reader", "cursor-1");
  EXPECT_EQ(store_->get("feed-reader"), "cursor-1");
  store_->set("feed-reader", "cursor-2");
  EXPECT_EQ(store_->get("feed-reader"), "cursor-2");
}

TEST_P(CheckpointConformance, ConsumersAndTenantsHaveTheirOwnPositions) {
  store_->set("a", "1");
  store_->set("b", "2");
  {
    TenantScope acme(TenantId("acme"));
    EXPECT_EQ(store_->get("a"), std::nullopt);
    store_->set("a", "acme-1");
    EXPECT_EQ(store_->get("a"), "acme-1");
  }
  {
    TenantScope globex(TenantId("globex"));
    EXPECT_EQ(store_->get("a"), std::nullopt);
  }
  EXPECT_EQ(store_->get("a"), "1");
  EXPECT_EQ(store_->get("b"), "2");
}

TEST_P(CheckpointConformance, AnotherStoreOnTheDatabaseReadsThePositionOnceSetReturns) {
  store_->set("feed-reader", "cursor-7");
  const std::unique_ptr<CheckpointStore> other = fixture_->open(clock_);
  EXPECT_EQ(other->get("feed-reader"), "cursor-7");
  other->set("feed-reader", "cursor-8");
  EXPECT_EQ(store_->get("feed-reader"), "cursor-8");
}

TEST_P(CheckpointConformance, PositionsComeBackExactly) {
  const std::string long_position(4096, 'p');
  const std::string unicode = "caf\xc3\xa9 \xf0\x9f\x93\xa6 \"quoted\" \\ {json: 1}";
  store_->set("long", long_position);
  store_->set("unicode", unicode);
  EXPECT_EQ(store_->get("long"), long_position);
  EXPECT_EQ(store_->get("unicode"), unicode);
}

TEST_P(CheckpointConformance, BlankOrInvalidValuesAreRefusedAndNothingIsWritten) {
  EXPECT_THROW(store_->set("", "cursor-1"), InvalidInputError);
  EXPECT_THROW(store_->set("  ", "cursor-1"), InvalidInputError);
  EXPECT_THROW(store_->set("reader", ""), InvalidInputError);
  EXPECT_THROW(store_->set("reader", " \t"), InvalidInputError);
  EXPECT_THROW(store_->set("reader", "\xFF"), InvalidInputError);
  EXPECT_THROW(store_->set(std::string(kMaxConsumerIdChars + 1, 'c'), "x"), InvalidInputError);
  EXPECT_THROW(store_->get(""), InvalidInputError);
  EXPECT_EQ(store_->get("reader"), std::nullopt);
  EXPECT_EQ(store_->get(std::string(kMaxConsumerIdChars, 'c')), std::nullopt);
}

INSTANTIATE_TEST_SUITE_P(Providers, CheckpointConformance,
                         ::testing::ValuesIn(all_checkpoint_providers()), checkpoint_case_name);

}  // namespace

void PrintTo(const CheckpointCase& provider, std::ostream* os) {
  *os << provider.name;
}

std::vector<CheckpointCase> all_checkpoint_providers() {
  return FixtureRegistry<CheckpointCase>::all();
}

}  // namespace docket::conformance
