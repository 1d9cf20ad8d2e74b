// docket inbox stats, failed, retry and cleanup on a real claim inbox, on every provider
// of the build that offers one and registers a scratch database
// (tests/support/scratch_database.h). The entries are written through the store, the
// tool is run as a child process.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "conformance/fixture_registry.h"
#include "docket/stores/open_store.h"
#include "scratch_stores.h"
#include "support/scratch_database.h"
#include "tool_runner.h"

namespace docket::testing {
namespace {

using std::chrono::hours;

namespace inbox_command_test {

// The scratch databases of the providers that offer a claim inbox.
std::vector<test_support::ScratchDatabaseCase> stores() {
  return scratch_databases_offering([](const providers::ProviderRegistration& provider) {
    return provider.claim_inbox != nullptr;
  });
}

}  // namespace inbox_command_test

class InboxCommandTest : public ::testing::TestWithParam<test_support::ScratchDatabaseCase> {
 protected:
  void SetUp() override {
    database_ = GetParam().make();
    url_ = database_->url();
  }

  // Writes entries as if `age` ago: processed ones for acme and globex, one of each
  // pending status for acme.
  void write_entries(hours age, int processed_per_tenant) {
    ManualClock clock(SystemClock::instance().now() - age);
    auto store = open_claim_inbox_store(url_, clock);
    for (const char* tenant : {"acme", "globex"}) {
      for (int i = 0; i < processed_per_tenant; ++i) {
        const ClaimKey key(TenantId(tenant),
                           "done-" + std::to_string(age.count()) + "-" + std::to_string(i), "H");
        ASSERT_TRUE(store->try_mark_processed(key));
      }
    }
    const ClaimKey failed(TenantId("acme"), "failed-" + std::to_string(age.count()), "H");
    const ClaimResult claim = store->try_claim(failed, "w", std::chrono::seconds(30));
    store->mark_failed(failed, claim.token, {"boom", clock.now()});
    store->try_claim(ClaimKey(TenantId("acme"), "busy-" + std::to_string(age.count()), "H"), "w",
                     std::chrono::seconds(30));
  }

  nlohmann::json stats(const std::vector<std::string>& extra = {}) {
    std::vector<std::string> args{"inbox", "stats", "--store", url_, "--json"};
    args.insert(args.end(), extra.begin(), extra.end());
    const ToolRun run = run_docket(args);
    EXPECT_EQ(run.exit_code, 0) << describe(run);
    return nlohmann::json::parse(run.out);
  }

  std::unique_ptr<test_support::ScratchDatabase> database_;
  std::string url_;
};

TEST_P(InboxCommandTest, StatsCountsByStatusForAllTenantsOrOne) {
  write_entries(hours(240), 3);
  const nlohmann::json all = stats();
  EXPECT_EQ(all["processed"], 6);
  EXPECT_EQ(all["failed"], 1);
  EXPECT_EQ(all["failed_due"], 1);
  EXPECT_EQ(all["processing"], 1);
  EXPECT_EQ(all["received"], 0);
  EXPECT_TRUE(all["oldest_pending"].is_string());
  EXPECT_EQ(all["tenant"], nullptr);
  const nlohmann::json globex = stats({"--tenant", "globex"});
  EXPECT_EQ(globex["processed"], 3);
  EXPECT_EQ(globex["failed"], 0);
  EXPECT_EQ(globex["oldest_pending"], nullptr);

  const ToolRun text = run_docket({"inbox", "stats", "--store", url_});
  EXPECT_EQ(text.exit_code, 0) << describe(text);
  EXPECT_NE(text.out.find("processed     6"), std::string::npos) << text.out;
}

TEST_P(InboxCommandTest, CleanupRemovesOnlyProcessedEntriesPastTheRetention) {
  write_entries(hours(240), 3);  // ten days ago
  write_entries(hours(24), 2);   // one day ago

  ToolRun dry = run_docket({"inbox", "cleanup", "--store", url_, "--older-than", "5d",
                            "--all-tenants", "--dry-run", "--json"});
  ASSERT_EQ(dry.exit_code, 0) << describe(dry);
  EXPECT_EQ(nlohmann::json::parse(dry.out)["cleanable"], 6);
  EXPECT_EQ(nlohmann::json::parse(dry.out)["removed"], 0);
  EXPECT_EQ(stats()["processed"], 10);

  ToolRun one =
      run_docket({"inbox", "cleanup", "--store", url_, "--older-than", "120h", "--tenant", "acme"});
  ASSERT_EQ(one.exit_code, 0) << describe(one);
  EXPECT_NE(one.out.find("removed 3 processed entries of tenant acme"), std::string::npos)
      << one.out;
  EXPECT_EQ(stats({"--tenant", "acme"})["processed"], 2);
  EXPECT_EQ(stats({"--tenant", "globex"})["processed"], 5);

  ToolRun all = run_docket({"inbox", "cleanup", "--store", url_, "--older-than", "5d",
                            "--all-tenants", "--batch", "2", "--json"});
  ASSERT_EQ(all.exit_code, 0) << describe(all);
  EXPECT_EQ(nlohmann::json::parse(all.out)["removed"], 3);
  const nlohmann::json after = stats();
  EXPECT_EQ(after["processed"], 4);
  EXPECT_EQ(after["failed"], 2);  // pending entries are never removed, however old
  EXPECT_EQ(after["processing"], 2);
}

// The failed entries, each once, with their last error and failures; filtered by tenant
// and error text, bounded by --limit (saying that more match); nothing else listed.
TEST_P(InboxCommandTest, FailedListsTheFailedEntriesWithTheirLastError) {
  write_entries(hours(240), 2);
  write_entries(hours(24), 1);
  {
    auto store = open_claim_inbox_store(url_);
    const ClaimKey key(TenantId("globex"), "flaky", "H");
    for (const char* error : {"gateway timeout", "payment declined: card 4242"}) {
      const ClaimResult claim = store->try_claim(key, "w", std::chrono::seconds(30));
      ASSERT_EQ(claim.outcome, ClaimOutcome::kClaimed);
      ASSERT_TRUE(store->mark_failed(key, claim.token, {error, SystemClock::instance().now()}));
    }
  }
  const auto failed = [&](const std::vector<std::string>& extra) {
    std::vector<std::string> args{"inbox", "failed", "--store", url_, "--json"};
    args.insert(args.end(), extra.begin(), extra.end());
    const ToolRun run = run_docket(args);
    EXPECT_EQ(run.exit_code, 0) << describe(run);
    return nlohmann::json::parse(run.out);
  };
  const nlohmann::json all = failed({});
  ASSERT_EQ(all["entries"].size(), 3U) << all.dump();
  EXPECT_EQ(all["more"], false);
  std::map<std::string, nlohmann::json> by_id;
  for (const nlohmann::json& entry : all["entries"]) {
    by_id[entry["message_id"].get<std::string>()] = entry;
  }
  ASSERT_TRUE(by_id.contains("flaky")) << all.dump();
  EXPECT_EQ(by_id["flaky"]["tenant"], "globex");
  EXPECT_EQ(by_id["flaky"]["failures"], 2);
  EXPECT_EQ(by_id["flaky"]["last_error"], "payment declined: card 4242");
  EXPECT_EQ(by_id["failed-240"]["last_error"], "boom");
  EXPECT_EQ(by_id["failed-240"]["failures"], 1);
  EXPECT_TRUE(by_id.contains("failed-24"));

  EXPECT_EQ(failed({"--tenant", "globex"})["entries"].size(), 1U);
  EXPECT_EQ(failed({"--tenant", "initech"})["entries"].size(), 0U);
  const nlohmann::json declined = failed({"--error-like", "declined"});
  ASSERT_EQ(declined["entries"].size(), 1U);
  EXPECT_EQ(declined["entries"][0]["message_id"], "flaky");
  EXPECT_EQ(failed({"--error-like", "Boom"})["entries"].size(), 0U) << "case-sensitive";
  const nlohmann::json one = failed({"--limit", "1"});
  EXPECT_EQ(one["entries"].size(), 1U);
  EXPECT_EQ(one["more"], true);

  const ToolRun text = run_docket({"inbox", "failed", "--store", url_, "--tenant", "globex"});
  EXPECT_EQ(text.exit_code, 0) << describe(text);
  EXPECT_NE(text.out.find("payment declined: card 4242"), std::string::npos) << text.out;
  for (const std::vector<std::string>& bad : std::vector<std::vector<std::string>>{
           {"--limit", "0"}, {"--limit", "-1"}, {"--error-like", ""}, {"--tenant", ""}}) {
    std::vector<std::string> args{"inbox", "failed", "--store", url_};
    args.insert(args.end(), bad.begin(), bad.end());
    const ToolRun run = run_docket(args);
    EXPECT_TRUE(run.exit_code == 1 || run.exit_code == 2) << describe(run);
    EXPECT_EQ(run.out, "") << describe(run);
  }
}

TEST_P(InboxCommandTest, BadOptionsAreRefusedAndNothingIsRemoved) {
  write_entries(hours(240), 1);
  const std::vector<std::vector<std::string>> bad = {
      {"--older-than", "-5d", "--all-tenants"},
      {"--older-than", "0d", "--all-tenants"},
      {"--older-than", "5x", "--all-tenants"},
      {"--older-than", "1.5d", "--all-tenants"},
      {"--older-than", "99999999999999999999d", "--all-tenants"},
      {"--older-than", "36501d", "--all-tenants"},
      {"--older-than", "5d"},
      {"--older-than", "5d", "--all-tenants", "--tenant", "acme"},
      {"--older-than", "5d", "--tenant", "__untenanted__"},
      {"--older-than", "5d", "--tenant", ""},
      {"--older-than", "5d", "--all-tenants", "--batch", "0"},
      {"--older-than", "5d", "--all-tenants", "--batch", "-1"},
      {"--older-than", "5d", "--all-tenants", "--batch", "100001"},
  };
  for (const auto& options : bad) {
    std::vector<std::string> args{"inbox", "cleanup", "--store", url_};
    args.insert(args.end(), options.begin(), options.end());
    const ToolRun run = run_docket(args);
    EXPECT_TRUE(run.exit_code == 1 || run.exit_code == 2) << describe(run);
    EXPECT_FALSE(run.err.empty());
  }
  EXPECT_EQ(stats()["processed"], 2);
  const ToolRun unknown = run_docket({"inbox", "stats", "--store", "nosuch://x"});
  EXPECT_EQ(unknown.exit_code, 1) << describe(unknown);
  EXPECT_NE(unknown.err.find("nosuch://x"), std::string::npos) << unknown.err;
}

// inbox retry makes failed entries due now (seen through the store's own failed_due),
// keeping their failures and last error: one by its key, or --all with filters; a dry run
// and a refusal change nothing.
TEST_P(InboxCommandTest, RetryMakesFailedEntriesDueNow) {
  auto store = open_claim_inbox_store(url_);
  const auto fail = [&](const ClaimKey& key, const std::string& error) {
    const ClaimResult claim = store->try_claim(key, "w", std::chrono::seconds(30));
    ASSERT_EQ(claim.outcome, ClaimOutcome::kClaimed);
    ASSERT_TRUE(
        store->mark_failed(key, claim.token, {error, SystemClock::instance().now() + hours(1)}));
  };
  const ClaimKey timeout(TenantId("acme"), "timeout", "H");
  const ClaimKey declined(TenantId("acme"), "declined", "H");
  const ClaimKey globex(TenantId("globex"), "declined-too", "H");
  fail(timeout, "gateway timeout");
  fail(declined, "payment declined");
  fail(globex, "payment declined: card 4242");
  ASSERT_TRUE(store->try_mark_processed(ClaimKey(TenantId("acme"), "done", "H")));
  store->try_claim(ClaimKey(TenantId("acme"), "busy", "H"), "w", std::chrono::seconds(30));
  const auto due = [&] {
    std::set<std::string> ids;
    for (const ClaimEntry& entry : store->failed_due(100, 100)) {
      EXPECT_EQ(entry.retry_count, 1U);
      ids.insert(entry.key.message_id());
    }
    return ids;
  };
  const auto retry = [&](const std::vector<std::string>& extra, int exit_code = 0) {
    std::vector<std::string> args{"inbox", "retry", "--store", url_, "--json"};
    args.insert(args.end(), extra.begin(), extra.end());
    const ToolRun run = run_docket(args);
    EXPECT_EQ(run.exit_code, exit_code) << describe(run);
    return run;
  };
  ASSERT_EQ(due(), std::set<std::string>{});

  const nlohmann::json one = nlohmann::json::parse(
      retry({"--tenant", "acme", "--message-id", "timeout", "--handler-type", "H"}).out);
  EXPECT_EQ(one["retried"], 1);
  EXPECT_EQ(one["dry_run"], false);
  EXPECT_EQ(due(), std::set<std::string>{"timeout"});
  EXPECT_EQ(store->find(timeout)->last_error, std::optional<std::string>("gateway timeout"));
  EXPECT_EQ(store->find(timeout)->status, ClaimStatus::kFailed);

  const nlohmann::json dry = nlohmann::json::parse(retry({"--all", "--dry-run"}).out);
  EXPECT_EQ(dry["matched"], 3);
  EXPECT_EQ(dry["retried"], 0);
  EXPECT_EQ(due(), std::set<std::string>{"timeout"}) << "a dry run changes nothing";

  const nlohmann::json acme_declined =
      nlohmann::json::parse(retry({"--all", "--tenant", "acme", "--error-like", "declined"}).out);
  EXPECT_EQ(acme_declined["matched"], 1);
  EXPECT_EQ(acme_declined["retried"], 1);
  ASSERT_EQ(acme_declined["entries"].size(), 1U);
  EXPECT_EQ(acme_declined["entries"][0]["message_id"], "declined");
  EXPECT_EQ(due(), (std::set<std::string>{"timeout", "declined"}));

  const nlohmann::json none =
      nlohmann::json::parse(retry({"--all", "--error-like", "no such error"}).out);
  EXPECT_EQ(none["matched"], 0);
  const nlohmann::json rest = nlohmann::json::parse(retry({"--all", "--error-like", "4242"}).out);
  EXPECT_EQ(rest["retried"], 1);
  EXPECT_EQ(due(), (std::set<std::string>{"timeout", "declined", "declined-too"}));

  // Refusals: an entry that is not failed (exit 1, saying why), usage errors (exit 2);
  // nothing is changed.
  const std::optional<ClaimEntry> busy = store->find(ClaimKey(TenantId("acme"), "busy", "H"));
  const std::vector<std::pair<std::string, std::string>> not_failed = {
      {"done", "processed"}, {"busy", "processing"}, {"nosuch", "no such entry"}};
  for (const auto& [id, why] : not_failed) {
    const ToolRun run = retry({"--tenant", "acme", "--message-id", id, "--handler-type", "H"}, 1);
    EXPECT_NE(run.err.find(why), std::string::npos) << describe(run);
    EXPECT_EQ(run.out, "") << describe(run);
  }
  EXPECT_EQ(store->find(ClaimKey(TenantId("acme"), "busy", "H")), busy);
  EXPECT_EQ(store->find(ClaimKey(TenantId("acme"), "nosuch", "H")), std::nullopt);
  for (const std::vector<std::string>& bad : std::vector<std::vector<std::string>>{
           {},
           {"--all", "--tenant", "acme", "--message-id", "timeout", "--handler-type", "H"},
           {"--tenant", "acme", "--message-id", "timeout"},
           {"--all", "--error-like", ""},
           {"--tenant", "acme", "--message-id", "timeout", "--handler-type", "H", "--error-like",
            "x"}}) {
    const ToolRun run = retry(bad, 2);
    EXPECT_EQ(run.out, "") << describe(run);
  }
  const ToolRun memory = run_docket({"inbox", "retry", "--store", "memory:", "--all"});
  EXPECT_EQ(memory.exit_code, 1) << describe(memory);
  EXPECT_NE(memory.err.find("memory"), std::string::npos) << describe(memory);
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(InboxCommandTest);
INSTANTIATE_TEST_SUITE_P(
    Stores, InboxCommandTest, ::testing::ValuesIn(inbox_command_test::stores()),
    [](const ::testing::TestParamInfo<test_support::ScratchDatabaseCase>& store) {
      return store.param.name;
    });

}  // namespace
}  // namespace docket::testing
