// docket sagas list on a real saga store, on every provider of the build that offers
// one and registers a scratch database (tests/support/scratch_database.h): sagas active
// and completed, of two tenants and two types, some last saved two days ago, written
// through the store; the tool run as a child process lists them filtered by status,
// type, tenant and age, as a table and as JSON, bounded by --limit and saying when more
// match; bad input is refused and reads nothing.
#include <gtest/gtest.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "conformance/fixture_registry.h"
#include "docket/stores/open_store.h"
#include "scratch_stores.h"
#include "support/scratch_database.h"
#include "tool_runner.h"

namespace docket::testing {
namespace {

using std::chrono::hours;

namespace sagas_list_test {

// The scratch databases of the providers that offer a saga store.
std::vector<test_support::ScratchDatabaseCase> stores() {
  return scratch_databases_offering(
      [](const providers::ProviderRegistration& provider) { return provider.saga != nullptr; });
}

}  // namespace sagas_list_test

class SagasListTest : public ::testing::TestWithParam<test_support::ScratchDatabaseCase> {
 protected:
  void SetUp() override {
    database_ = GetParam().make();
    url_ = database_->url();
  }

  // acme: checkout O-1 active at version 1 and checkout O-2 completed, both last saved
  // two days ago; shipping S-1 active, saved now. globex: checkout O-1 active and
  // checkout O-3 completed, saved now.
  void write_sagas() {
    auto old = open_saga_store(url_, two_days_ago_);
    old->save(SagaId(TenantId("acme"), "checkout", "O-1"), kNewSaga, "s").value_or_throw();
    old->save(SagaId(TenantId("acme"), "checkout", "O-1"), 0, "s2").value_or_throw();
    old->save(SagaId(TenantId("acme"), "checkout", "O-2"), kNewSaga, "s").value_or_throw();
    old->save(SagaId(TenantId("acme"), "checkout", "O-2"), 0, "done", SagaStatus::kCompleted)
        .value_or_throw();
    auto now = open_saga_store(url_);
    now->save(SagaId(TenantId("acme"), "shipping", "S-1"), kNewSaga, "s").value_or_throw();
    now->save(SagaId(TenantId("globex"), "checkout", "O-1"), kNewSaga, "s").value_or_throw();
    now->save(SagaId(TenantId("globex"), "checkout", "O-3"), kNewSaga, "s").value_or_throw();
    now->save(SagaId(TenantId("globex"), "checkout", "O-3"), 0, "done", SagaStatus::kCompleted)
        .value_or_throw();
  }

  nlohmann::json list(const std::vector<std::string>& extra) {
    std::vector<std::string> args{"sagas", "list", "--store", url_, "--json"};
    args.insert(args.end(), extra.begin(), extra.end());
    const ToolRun run = run_docket(args);
    EXPECT_EQ(run.exit_code, 0) << describe(run);
    return run.exit_code == 0 ? nlohmann::json::parse(run.out) : nlohmann::json::object();
  }
  // "tenant/type/id" of each saga listed.
  std::set<std::string> names(const std::vector<std::string>& extra) {
    std::set<std::string> out;
    const nlohmann::json listed = list(extra);
    for (const nlohmann::json& saga : listed["sagas"]) {
      out.insert(saga["tenant"].get<std::string>() + "/" + saga["saga_type"].get<std::string>() +
                 "/" + saga["saga_id"].get<std::string>());
    }
    return out;
  }

  std::unique_ptr<test_support::ScratchDatabase> database_;
  std::string url_;
  ManualClock two_days_ago_{SystemClock::instance().now() - hours(48)};
};

TEST_P(SagasListTest, ListsSagasOfBothStatusesFilteredByStatusTypeTenantAndAge) {
  write_sagas();
  const nlohmann::json all = list({});
  EXPECT_EQ(all["count"], 5);
  EXPECT_EQ(all["more"], false);
  EXPECT_EQ(all["tenant"], nullptr);
  EXPECT_EQ(names({"--all-tenants"}).size(), 5U);

  using Names = std::set<std::string>;
  EXPECT_EQ(names({"--status", "active"}),
            (Names{"acme/checkout/O-1", "acme/shipping/S-1", "globex/checkout/O-1"}));
  EXPECT_EQ(names({"--status", "completed"}), (Names{"acme/checkout/O-2", "globex/checkout/O-3"}));
  EXPECT_EQ(names({"--type", "shipping"}), (Names{"acme/shipping/S-1"}));
  EXPECT_EQ(names({"--tenant", "globex"}), (Names{"globex/checkout/O-1", "globex/checkout/O-3"}));
  EXPECT_EQ(names({"--older-than", "1d"}), (Names{"acme/checkout/O-1", "acme/checkout/O-2"}));
  EXPECT_EQ(names({"--tenant", "acme", "--saga-type", "checkout", "--status", "completed"}),
            (Names{"acme/checkout/O-2"}));

  // The saga that may be stuck: active, not saved for a day; with its record.
  const nlohmann::json stuck = list({"--status", "active", "--older-than", "1d"});
  ASSERT_EQ(stuck["sagas"].size(), 1U) << stuck.dump();
  const nlohmann::json& saga = stuck["sagas"][0];
  EXPECT_EQ(saga["tenant"], "acme");
  EXPECT_EQ(saga["saga_type"], "checkout");
  EXPECT_EQ(saga["saga_id"], "O-1");
  EXPECT_EQ(saga["version"], 1);
  EXPECT_EQ(saga["status"], "active");
  EXPECT_EQ(saga["started_at"], format_timestamp(two_days_ago_.now()));
  EXPECT_EQ(saga["updated_at"], format_timestamp(two_days_ago_.now()));
  EXPECT_EQ(saga["completed_at"], nullptr);
  EXPECT_EQ(stuck["filters"]["status"], "active");
  EXPECT_EQ(stuck["filters"]["older_than"], "1d");
  EXPECT_TRUE(stuck["filters"]["updated_before"].is_string());
  const nlohmann::json done = list({"--status", "completed", "--tenant", "acme"});
  ASSERT_EQ(done["sagas"].size(), 1U) << done.dump();
  EXPECT_EQ(done["sagas"][0]["completed_at"], format_timestamp(two_days_ago_.now()));
  EXPECT_EQ(done["tenant"], "acme");

  // Filters that match nothing: an empty answer, not an error.
  EXPECT_EQ(list({"--tenant", "initech"})["count"], 0);
  EXPECT_EQ(list({"--type", "refund"})["count"], 0);
  EXPECT_EQ(list({"--status", "completed", "--older-than", "3d"})["count"], 0);
}

TEST_P(SagasListTest, LimitBoundsTheListAndSaysWhenMoreMatch) {
  write_sagas();
  const nlohmann::json two = list({"--limit", "2"});
  EXPECT_EQ(two["sagas"].size(), 2U);
  EXPECT_EQ(two["count"], 2);
  EXPECT_EQ(two["more"], true);
  EXPECT_EQ(list({"--limit", "5"})["more"], false);
  EXPECT_EQ(list({"--limit", "4"})["more"], true);
  EXPECT_EQ(list({"--status", "active", "--limit", "3"})["more"], false);

  const ToolRun text = run_docket({"sagas", "list", "--store", url_, "--limit", "1"});
  ASSERT_EQ(text.exit_code, 0) << describe(text);
  EXPECT_NE(text.out.find("1 shown, more match: raise --limit"), std::string::npos) << text.out;
}

TEST_P(SagasListTest, PrintsATable) {
  write_sagas();
  const ToolRun text =
      run_docket({"sagas", "list", "--store", url_, "--tenant", "acme", "--status", "active"});
  ASSERT_EQ(text.exit_code, 0) << describe(text);
  EXPECT_NE(text.out.find("sagas         2\n"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("TENANT  SAGA TYPE  SAGA ID  VERSION  STATUS"), std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("acme    checkout   O-1      1        active"), std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("acme    shipping   S-1      0        active"), std::string::npos)
      << text.out;
  EXPECT_EQ(text.out.find("globex"), std::string::npos) << text.out;
  EXPECT_EQ(text.out.find("completed  "), std::string::npos) << text.out;

  const ToolRun none =
      run_docket({"sagas", "list", "--store", url_, "--tenant", "initech", "--older-than", "1h"});
  ASSERT_EQ(none.exit_code, 0) << describe(none);
  EXPECT_NE(none.out.find("sagas         0\n"), std::string::npos) << none.out;
  EXPECT_EQ(none.out.find("TENANT"), std::string::npos) << none.out;
}

// More sagas than one page of the tool's reads (500): every one shown once.
TEST_P(SagasListTest, ReadsPageAfterPage) {
  auto store = open_saga_store(url_);
  for (int i = 0; i < 503; ++i) {
    store->save(SagaId(TenantId("acme"), "checkout", "P-" + std::to_string(i)), kNewSaga, "s")
        .value_or_throw();
  }
  EXPECT_EQ(names({"--limit", "1000"}).size(), 503U);
  const nlohmann::json bounded = list({"--limit", "501"});
  EXPECT_EQ(bounded["count"], 501);
  EXPECT_EQ(bounded["more"], true);
  EXPECT_EQ(list({"--limit", "503"})["more"], false);
}

TEST_P(SagasListTest, BadInputIsRefusedAndReadsNothing) {
  write_sagas();
  const std::vector<std::vector<std::string>> bad = {
      {"--status", "running"},
      {"--status", ""},
      {"--limit", "0"},
      {"--limit", "-1"},
      {"--limit", "1000001"},
      {"--limit", "ten"},
      {"--older-than", "5x"},
      {"--older-than", "-1d"},
      {"--older-than", "0s"},
      {"--older-than", "1.5h"},
      {"--tenant", ""},
      {"--tenant", "\xff"},
      {"--tenant", "acme", "--all-tenants"},
      {"--type", ""},
      {"--type", std::string(300, 't')},
  };
  for (const std::vector<std::string>& options : bad) {
    std::vector<std::string> args{"sagas", "list", "--store", url_};
    args.insert(args.end(), options.begin(), options.end());
    const ToolRun run = run_docket(args);
    EXPECT_TRUE(run.exit_code == 1 || run.exit_code == 2) << describe(run);
    EXPECT_EQ(run.out, "") << describe(run);
    EXPECT_NE(run.err.find("docket: "), std::string::npos) << describe(run);
    EXPECT_NE(run.err.find(options[0]), std::string::npos) << describe(run);
  }
  EXPECT_EQ(list({})["count"], 5);
}

INSTANTIATE_TEST_SUITE_P(
    Stores, SagasListTest, ::testing::ValuesIn(sagas_list_test::stores()),
    [](const ::testing::TestParamInfo<test_support::ScratchDatabaseCase>& store) {
      return store.param.name;
    });

}  // namespace
}  // namespace docket::testing
