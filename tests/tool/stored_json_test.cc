// `docket events show --json` and `docket sagas show --json` on every provider of the
// build that offers an event and a saga store and registers a scratch database: a JSON
// payload or state is embedded byte for byte, never parsed and written again, so what
// the store holds is what is printed even where a JSON library would change it (a
// number past 64 bits, a repeated key, 1e2, -0, insignificant whitespace); and the
// output is still one JSON object whose payload a reader can parse.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "conformance/fixture_registry.h"
#include "docket/stores/open_store.h"
#include "providers/registry.h"
#include "scratch_stores.h"
#include "support/scratch_database.h"
#include "tool_runner.h"

namespace docket::testing {
namespace {

using ::testing::HasSubstr;

// Each is a JSON text that nlohmann::json (and most parsers) would print differently.
const std::vector<std::string> kChangedByReserialising = {
    "12345678901234567890123",             // past 64 bits: 1.2345678901234568e+22
    R"({"a":1,"a":2})",                    // a repeated key: {"a":2}
    "1e2",                                 // 100.0
    "-0",                                  // 0
    R"({ "amount" : 250 , "x":[1 ,2] })",  // whitespace dropped
    R"({"z":1,"a":2})",                    // keys sorted: {"a":2,"z":1}
    R"("caf\u00e9")",                      // an escape written back as UTF-8
};

std::vector<test_support::ScratchDatabaseCase> stores_with_events_and_sagas() {
  return scratch_databases_offering([](const providers::ProviderRegistration& provider) {
    return provider.event != nullptr && provider.saga != nullptr;
  });
}

class StoredJsonTest : public ::testing::TestWithParam<test_support::ScratchDatabaseCase> {};

TEST_P(StoredJsonTest, EventsShowEmbedsEachJsonPayloadByteForByte) {
  const auto database = GetParam().make();
  const StreamId stream(TenantId("acme"), "order", "o-1");
  std::vector<NewEvent> events;
  for (const std::string& payload : kChangedByReserialising) {
    events.push_back(NewEvent{.type = "placed", .payload = payload});
  }
  ASSERT_TRUE(open_event_store(database->url())
                  ->append(stream, ExpectedVersion::no_stream(), events)
                  .succeeded());

  const ToolRun run = run_docket({"events", "show", "--store", database->url(), "--tenant", "acme",
                                  "--aggregate-type", "order", "--aggregate-id", "o-1", "--json"});
  ASSERT_EQ(run.exit_code, 0) << describe(run);
  for (const std::string& payload : kChangedByReserialising) {
    // The payload is the event's last field: the object closes right after it.
    EXPECT_THAT(run.out, HasSubstr("\"payload\":" + payload + "}")) << payload;
  }
  // Still one JSON object, each payload JSON a reader can parse.
  const nlohmann::json shown = nlohmann::json::parse(run.out);
  ASSERT_EQ(shown.at("events").size(), kChangedByReserialising.size());
  EXPECT_EQ(shown.at("events")[4].at("payload").at("amount"), 250);
}

TEST_P(StoredJsonTest, SagasShowEmbedsTheJsonStateByteForByte) {
  const auto database = GetParam().make();
  const std::string state = R"({"total":12345678901234567890123,"step":1,"step":2,"rate":1e2})";
  open_saga_store(database->url())
      ->save(SagaId(TenantId("acme"), "checkout", "O-1"), kNewSaga, state)
      .value_or_throw();
  const ToolRun run = run_docket({"sagas", "show", "--store", database->url(), "--tenant", "acme",
                                  "--saga-type", "checkout", "--saga-id", "O-1", "--json"});
  ASSERT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("\"state\":" + state)) << run.out;
  EXPECT_EQ(nlohmann::json::parse(run.out).at("saga").at("version"), 0);
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(StoredJsonTest);
INSTANTIATE_TEST_SUITE_P(
    Stores, StoredJsonTest, ::testing::ValuesIn(stores_with_events_and_sagas()),
    [](const ::testing::TestParamInfo<test_support::ScratchDatabaseCase>& store) {
      return store.param.name;
    });

// A text that is not JSON (a byte order mark before it, a comment, two values) is
// printed as text, still unchanged, never embedded where it would break the object.
TEST(StoredJson, TextThatIsNotOneJsonValueIsPrintedAsAString) {
  const std::string url = "sqlite://" + ::testing::TempDir() + "stored-json-text.db";
  std::remove((::testing::TempDir() + "stored-json-text.db").c_str());
  const std::vector<std::string> texts = {"\xEF\xBB\xBF{}", "{} // note", "1 2", "{\"a\":}"};
  std::vector<NewEvent> events;
  for (const std::string& text : texts) {
    events.push_back(NewEvent{.type = "noted", .payload = text});
  }
  ASSERT_TRUE(
      open_event_store(url)
          ->append(StreamId(TenantId("acme"), "order", "t-1"), ExpectedVersion::no_stream(), events)
          .succeeded());
  const ToolRun run = run_docket({"events", "show", "--store", url, "--tenant", "acme",
                                  "--aggregate-type", "order", "--aggregate-id", "t-1", "--json"});
  ASSERT_EQ(run.exit_code, 0) << describe(run);
  const nlohmann::json shown = nlohmann::json::parse(run.out);
  for (std::size_t i = 0; i < texts.size(); ++i) {
    EXPECT_EQ(shown.at("events")[i].at("payload_text"), texts[i]) << i;
  }
}

}  // namespace
}  // namespace docket::testing
