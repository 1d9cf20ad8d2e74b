// The checkpoint store conformance suite, listing (CheckpointStore::list): every stored
// checkpoint with its tenant, consumer, position and the time it was last set, filtered
// by tenant and consumer, paged so that the pages hold every match once, whatever the
// page size; bad requests refused before anything is read.
#include <gtest/gtest.h>

#include <chrono>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "conformance/checkpoint/checkpoint_fixture.h"
#include "docket/core/error.h"
#include "docket/core/tenant.h"
#include "docket/inbox/inbox_options.h"

namespace docket::conformance {
namespace {

std::string checkpoint_list_case_name(const ::testing::TestParamInfo<CheckpointCase>& param_info) {
  return param_info.param.name;
}

class CheckpointListConformance : public ::testing::TestWithParam<CheckpointCase> {
 protected:
  void SetUp() override {
    fixture_ = GetParam().make();
    store_ = fixture_->open(clock_);
  }

  void set_in(const TenantId& tenant, std::string_view consumer, std::string_view position) {
    const TenantScope scope(tenant);
    store_->set(consumer, position);
  }

  // projector and mailer outside any tenant; projector for acme and globex; mailer for
  // acme set an hour later.
  void write_checkpoints() {
    store_->set("projector", "17");
    store_->set("mailer", "4");
    set_in(TenantId("acme"), "projector", "9");
    set_in(TenantId("globex"), "projector", "12");
    clock_.advance(std::chrono::hours(1));
    set_in(TenantId("acme"), "mailer", "3");
  }

  // Every page of `request` read, as (tenant, consumer, position), checking that no
  // entry comes twice.
  using Listed = std::set<std::tuple<std::string, std::string, std::string>>;
  Listed list_all(CheckpointListRequest request) {
    Listed listed;
    for (int pages = 0; pages < 100; ++pages) {
      const CheckpointPage page = store_->list(request);
      EXPECT_LE(page.entries.size(), request.limit);
      for (const CheckpointEntry& entry : page.entries) {
        EXPECT_TRUE(listed.emplace(entry.tenant.value(), entry.consumer_id, entry.position).second)
            << "listed twice: " << entry.tenant.value() << "/" << entry.consumer_id;
      }
      if (!page.next) {
        return listed;
      }
      request.after = page.next;
    }
    ADD_FAILURE() << "the listing did not end";
    return listed;
  }

  ManualClock clock_{Timestamp(std::chrono::seconds(1'800'000'000))};
  std::unique_ptr<CheckpointFixture> fixture_;
  std::unique_ptr<CheckpointStore> store_;
};

const std::string kNone = std::string(kUntenantedSentinel);

TEST_P(CheckpointListConformance, AnEmptyStoreListsNothing) {
  const CheckpointPage page = store_->list({});
  EXPECT_TRUE(page.entries.empty());
  EXPECT_EQ(page.next, std::nullopt);
}

TEST_P(CheckpointListConformance, ListsEveryCheckpointWithItsTenantPositionAndTime) {
  const Timestamp first = clock_.now();
  write_checkpoints();
  const Listed expected{{kNone, "projector", "17"},
                        {kNone, "mailer", "4"},
                        {"acme", "projector", "9"},
                        {"globex", "projector", "12"},
                        {"acme", "mailer", "3"}};
  EXPECT_EQ(list_all({}), expected);

  const CheckpointPage one_page = store_->list({.limit = 10});
  ASSERT_EQ(one_page.entries.size(), 5u);
  EXPECT_EQ(one_page.next, std::nullopt);
  for (const CheckpointEntry& entry : one_page.entries) {
    const bool later = entry.tenant == TenantId("acme") && entry.consumer_id == "mailer";
    EXPECT_EQ(entry.updated_at, later ? first + std::chrono::hours(1) : first)
        << entry.tenant.value() << "/" << entry.consumer_id;
  }
}

TEST_P(CheckpointListConformance, FiltersByTenantAndConsumer) {
  write_checkpoints();
  EXPECT_EQ(list_all({.consumer_id = "projector"}), (Listed{{kNone, "projector", "17"},
                                                            {"acme", "projector", "9"},
                                                            {"globex", "projector", "12"}}));
  EXPECT_EQ(list_all({.tenant = TenantId("acme")}),
            (Listed{{"acme", "projector", "9"}, {"acme", "mailer", "3"}}));
  EXPECT_EQ(list_all({.tenant = TenantId::untenanted()}),
            (Listed{{kNone, "projector", "17"}, {kNone, "mailer", "4"}}));
  EXPECT_EQ(list_all({.consumer_id = "mailer", .tenant = TenantId("acme")}),
            (Listed{{"acme", "mailer", "3"}}));
  EXPECT_EQ(list_all({.consumer_id = "mailer", .tenant = TenantId("globex")}), Listed{});
  EXPECT_EQ(list_all({.consumer_id = "nobody"}), Listed{});
}

TEST_P(CheckpointListConformance, PageSizesDoNotChangeWhatIsListed) {
  for (int i = 0; i < 12; ++i) {
    set_in(TenantId("t" + std::to_string(i % 3)), "c" + std::to_string(i), std::to_string(i));
  }
  store_->set("c-whole", "99");
  const Listed whole = list_all({.limit = 1000});
  ASSERT_EQ(whole.size(), 13u);
  for (const std::size_t limit : {1u, 2u, 5u, 13u}) {
    EXPECT_EQ(list_all({.limit = limit}), whole) << limit;
  }
  const Listed t1 = list_all({.tenant = TenantId("t1"), .limit = 1000});
  EXPECT_EQ(t1.size(), 4u);
  EXPECT_EQ(list_all({.tenant = TenantId("t1"), .limit = 1}), t1);
}

TEST_P(CheckpointListConformance, AListedPositionIsTheLatestSet) {
  store_->set("projector", "1");
  store_->set("projector", "2");
  const CheckpointPage page = store_->list({.consumer_id = "projector"});
  ASSERT_EQ(page.entries.size(), 1u);
  EXPECT_EQ(page.entries[0].position, "2");
  EXPECT_EQ(page.entries[0].tenant, TenantId::untenanted());
}

TEST_P(CheckpointListConformance, BadRequestsAreRefused) {
  write_checkpoints();
  EXPECT_THROW(store_->list({.limit = 0}), InvalidInputError);
  EXPECT_THROW(store_->list({.limit = kMaxCheckpointPageSize + 1}), InvalidInputError);
  EXPECT_THROW(store_->list({.consumer_id = ""}), InvalidInputError);
  EXPECT_THROW(store_->list({.consumer_id = std::string(kMaxConsumerIdChars + 1, 'c')}),
               InvalidInputError);
  EXPECT_THROW(store_->list({.tenant = TenantId("acme"),
                             .after = CheckpointListPosition{TenantId("globex"), "projector"}}),
               InvalidInputError);
  EXPECT_THROW(store_->list({.consumer_id = "mailer",
                             .after = CheckpointListPosition{TenantId("acme"), "projector"}}),
               InvalidInputError);
}

INSTANTIATE_TEST_SUITE_P(Providers, CheckpointListConformance,
                         ::testing::ValuesIn(all_checkpoint_providers()),
                         checkpoint_list_case_name);

}  // namespace
}  // namespace docket::conformance
