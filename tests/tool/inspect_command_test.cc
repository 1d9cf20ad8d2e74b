// docket events show, docket sagas show and docket migrate scan on every provider of the build that
// offers an event and a saga store and registers a scratch database
// (tests/support/scratch_database.h): what the stores hold, written through them,
// printed by the tool run as a child process, bytes unchanged (JSON payloads parsed,
// text kept, anything else in hex); a stream or saga that does not exist is an empty
// answer, not an error; refused terms exit 1 before any store is opened.
#include <gtest/gtest.h>

#include <array>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "conformance/fixture_registry.h"
#include "docket/stores/open_store.h"
#include "scratch_stores.h"
#include "support/scratch_database.h"
#include "tool_runner.h"

namespace docket::testing {
namespace {

namespace inspect_command_test {

// The scratch databases of the providers that offer an event and a saga store.
std::vector<test_support::ScratchDatabaseCase> stores() {
  return scratch_databases_offering([](const providers::ProviderRegistration& provider) {
    return provider.event != nullptr && provider.saga != nullptr;
  });
}

}  // namespace inspect_command_test

class InspectCommandTest : public ::testing::TestWithParam<test_support::ScratchDatabaseCase> {
 protected:
  void SetUp() override {
    database_ = GetParam().make();
    url_ = database_->url();
  }

  nlohmann::json show(const std::vector<std::string>& args) {
    std::vector<std::string> all = args;
    all.insert(all.end(), {"--store", url_, "--json"});
    const ToolRun run = run_docket(all);
    EXPECT_EQ(run.exit_code, 0) << describe(run);
    return run.exit_code == 0 ? nlohmann::json::parse(run.out) : nlohmann::json();
  }

  std::unique_ptr<test_support::ScratchDatabase> database_;
  std::string url_;
  ManualClock clock_{Timestamp(std::chrono::seconds(1'800'000'000))};
};

const std::vector<std::string> kOrderStream{"events",           "show",  "--tenant",       "acme",
                                            "--aggregate-type", "order", "--aggregate-id", "o:1/2"};

TEST_P(InspectCommandTest, EventsShowPrintsTheStreamAsLoadedBytesUnchanged) {
  const StreamId stream(TenantId("acme"), "order", "o:1/2");
  const std::array events{
      NewEvent{
          .type = "placed", .payload = R"({"amount":250})", .metadata = {.correlation_id = "c-1"}},
      NewEvent{.type = "noted", .payload = "plain words"},
      NewEvent{.type = "raw", .payload = std::string("\xff\x00\x01", 3)}};
  auto store = open_event_store(url_, clock_);
  ASSERT_TRUE(store->append(stream, ExpectedVersion::no_stream(), events).succeeded());
  // Another tenant's stream with the same aggregate is not shown.
  const std::array other{NewEvent{.type = "placed", .payload = "{}"}};
  ASSERT_TRUE(store
                  ->append(StreamId(TenantId("globex"), "order", "o:1/2"),
                           ExpectedVersion::no_stream(), other)
                  .succeeded());

  const nlohmann::json shown = show(kOrderStream);
  EXPECT_EQ(shown["tenant"], "acme");
  EXPECT_EQ(shown["aggregate_id"], "o:1/2");
  EXPECT_EQ(shown["version"], 2);
  ASSERT_EQ(shown["events"].size(), 3u);
  EXPECT_EQ(shown["events"][0]["type"], "placed");
  EXPECT_EQ(shown["events"][0]["payload"]["amount"], 250);
  EXPECT_EQ(shown["events"][0]["correlation_id"], "c-1");
  EXPECT_EQ(shown["events"][1]["payload_text"], "plain words");
  EXPECT_EQ(shown["events"][2]["payload_hex"], "ff0001");
  EXPECT_EQ(shown["events"][2]["version"], 2);
  EXPECT_EQ(shown["events"][2]["occurred_at"], format_timestamp(clock_.now()));

  std::vector<std::string> from = kOrderStream;
  from.insert(from.end(), {"--from-version", "2"});
  EXPECT_EQ(show(from)["events"].size(), 1u);

  const ToolRun text = run_docket({"events", "show", "--store", url_, "--tenant", "acme",
                                   "--aggregate-type", "order", "--aggregate-id", "o:1/2"});
  EXPECT_EQ(text.exit_code, 0) << describe(text);
  EXPECT_NE(text.out.find("events  3 (versions 0..2)"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("hex:ff0001"), std::string::npos) << text.out;
}

TEST_P(InspectCommandTest, SagasShowPrintsTheRecordAsLoaded) {
  auto store = open_saga_store(url_, clock_);
  const SagaId saga(TenantId("acme"), "checkout", "O-1");
  store->save(saga, kNewSaga, "step one").value_or_throw();
  store->save(saga, 0, std::string("\x80\x81", 2), SagaStatus::kCompleted).value_or_throw();

  const nlohmann::json shown =
      show({"sagas", "show", "--tenant", "acme", "--saga-type", "checkout", "--saga-id", "O-1"});
  EXPECT_EQ(shown["saga"]["version"], 1);
  EXPECT_EQ(shown["saga"]["status"], "completed");
  EXPECT_EQ(shown["saga"]["state_hex"], "8081");
  EXPECT_EQ(shown["saga"]["completed_at"], format_timestamp(clock_.now()));

  const nlohmann::json other_tenant =
      show({"sagas", "show", "--tenant", "globex", "--saga-type", "checkout", "--saga-id", "O-1"});
  EXPECT_TRUE(other_tenant["saga"].is_null());
}

TEST_P(InspectCommandTest, NothingStoredIsAnEmptyAnswer) {
  const nlohmann::json stream = show(kOrderStream);
  EXPECT_TRUE(stream["version"].is_null());
  EXPECT_TRUE(stream["events"].empty());
  const ToolRun text = run_docket({"sagas", "show", "--store", url_, "--tenant", "acme",
                                   "--saga-type", "checkout", "--saga-id", "none"});
  EXPECT_EQ(text.exit_code, 0) << describe(text);
  EXPECT_NE(text.out.find("(none)"), std::string::npos) << text.out;
}

TEST_P(InspectCommandTest, MigrateScanOfAStoreWithOnlyCurrentKeysFindsNothingLegacy) {
  const std::array events{NewEvent{.type = "placed", .payload = "{}"}};
  ASSERT_TRUE(
      open_event_store(url_, clock_)
          ->append(StreamId(TenantId("acme"), "order", "O-1"), ExpectedVersion::no_stream(), events)
          .succeeded());
  open_saga_store(url_, clock_)
      ->save(SagaId(TenantId("acme"), "checkout", "O-1"), kNewSaga, "s")
      .value_or_throw();
  const ToolRun run = run_docket({"migrate", "scan", "--store", url_, "--json"});
  ASSERT_EQ(run.exit_code, 0) << describe(run);
  const nlohmann::json scan = nlohmann::json::parse(run.out);
  EXPECT_EQ(scan["provider"], GetParam().provider);
  EXPECT_EQ(scan["legacy"], 0);
  // A provider keyed by columns names no place; one keyed by keys names its event and
  // saga tables or collections, each holding what was written (and perhaps others).
  for (const nlohmann::json& place : scan["places"]) {
    const std::string records = place["records"];
    if (records.starts_with("event") || records.starts_with("saga")) {
      EXPECT_TRUE(place["exists"].get<bool>()) << place.dump();
    }
    EXPECT_EQ(place["legacy"], 0) << place.dump();
    EXPECT_TRUE(place["examples"].empty()) << place.dump();
  }
}

INSTANTIATE_TEST_SUITE_P(
    Stores, InspectCommandTest, ::testing::ValuesIn(inspect_command_test::stores()),
    [](const ::testing::TestParamInfo<test_support::ScratchDatabaseCase>& store) {
      return store.param.name;
    });

// Refused terms and options, with a store URL that cannot be opened: the refusal comes
// first, so nothing is ever sent.
TEST(InspectCommand, RefusedTermsExitOneAndBadOptionsTwo) {
  const std::string nowhere = "postgresql://nobody@127.0.0.1:1/none";
  const ToolRun blank_tenant = run_docket({"events", "show", "--store", nowhere, "--tenant", "",
                                           "--aggregate-type", "order", "--aggregate-id", "o-1"});
  EXPECT_EQ(blank_tenant.exit_code, 1) << describe(blank_tenant);
  EXPECT_NE(blank_tenant.err.find("tenant"), std::string::npos) << blank_tenant.err;

  const ToolRun bad_id = run_docket({"sagas", "show", "--store", nowhere, "--tenant", "acme",
                                     "--saga-type", "checkout", "--saga-id", "\xff"});
  EXPECT_EQ(bad_id.exit_code, 1) << describe(bad_id);
  EXPECT_NE(bad_id.err.find("UTF-8"), std::string::npos) << bad_id.err;

  for (const char* from : {"-1", "x", "99999999999999999999", "9223372036854775808"}) {
    const ToolRun run =
        run_docket({"events", "show", "--store", nowhere, "--tenant", "acme", "--aggregate-type",
                    "order", "--aggregate-id", "o-1", "--from-version", from});
    EXPECT_NE(run.exit_code, 0) << from << ": " << describe(run);
    EXPECT_NE(run.err.find("--from-version"), std::string::npos) << from << ": " << run.err;
  }
  const ToolRun missing = run_docket({"sagas", "show", "--store", nowhere, "--tenant", "acme"});
  EXPECT_EQ(missing.exit_code, 2) << describe(missing);
  for (const char* examples : {"-1", "x", "99999999999999999999"}) {
    const ToolRun run = run_docket({"migrate", "scan", "--store", nowhere, "--examples", examples});
    EXPECT_EQ(run.exit_code, 2) << examples << ": " << describe(run);
    EXPECT_NE(run.err.find("--examples"), std::string::npos) << examples << ": " << run.err;
  }
  // Past the option's range: a usage error too, as a malformed count is.
  const ToolRun too_many =
      run_docket({"migrate", "scan", "--store", nowhere, "--examples", "1001"});
  EXPECT_EQ(too_many.exit_code, 2) << describe(too_many);
  EXPECT_NE(too_many.err.find("at most 1000"), std::string::npos) << too_many.err;
}

}  // namespace
}  // namespace docket::testing
