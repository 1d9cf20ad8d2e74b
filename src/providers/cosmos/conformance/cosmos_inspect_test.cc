// docket events show and docket sagas show on the Cosmos DB test server while items of an
// earlier release's untenanted shape are present (written here raw): each command exits 1
// with the legacy-key guard's message naming the container and the key, docket migrate
// scan counts them, and each answers normally once the legacy item is gone, which is how
// an operator checks a re-key.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "providers/cosmos/cosmos_client.h"
#include "providers/cosmos/cosmos_event_item.h"
#include "providers/cosmos/cosmos_items.h"
#include "providers/cosmos/cosmos_saga_item.h"
#include "providers/cosmos/tests/cosmos_database.h"
#include "tool/tool_runner.h"

namespace docket::testing {
namespace {

using ::testing::HasSubstr;
namespace cosmos_detail = docket::cosmos::detail;

class CosmosInspectTest : public ::testing::Test {
 protected:
  // Creates `item` in `container_base` (partitioned by `path`), partition `partition`.
  void put(std::string_view container_base, std::string_view path, const nlohmann::json& item,
           std::string_view partition) const {
    const std::string container = client_.url().container(container_base);
    client_.ensure_container(container, path);
    ASSERT_TRUE(cosmos_detail::create_item(client_,
                                           {.container = container,
                                            .id = item["id"].get_ref<const std::string&>(),
                                            .partition_key = partition},
                                           item));
  }
  void remove(std::string_view container_base, std::string_view id,
              std::string_view partition) const {
    const cosmos_detail::ItemAddress address{
        .container = client_.url().container(container_base), .id = id, .partition_key = partition};
    const std::optional<cosmos_detail::ReadItem> item = cosmos_detail::read_item(client_, address);
    ASSERT_TRUE(item.has_value());
    ASSERT_TRUE(cosmos_detail::delete_item(client_, address, item->etag));
  }

  test_support::CosmosDatabase database_;
  cosmos_detail::Client client_{cosmos_detail::parse_store_url(database_.url())};
};

TEST_F(CosmosInspectTest, EventsShowRefusesWhileAnUntenantedStreamRemains) {
  for (const char* id : {"0", "1"}) {  // two events of one legacy stream
    put(cosmos_detail::event::kContainer, cosmos_detail::event::kPartitionKeyPath,
        {{"id", id},
         {cosmos_detail::event::kStreamField, "order:O-1"},
         {"version", std::stoi(id)},
         {"eventId", "0190a6c2-0000-7000-8000-000000000000"},
         {"type", "placed"},
         {"payload", "e30="},
         {"occurredAt", "0"}},
        "order:O-1");
  }
  const std::string container = client_.url().container(cosmos_detail::event::kContainer);
  const std::vector<std::string> show{
      "events",           "show",  "--store",        database_.url(), "--tenant", "acme",
      "--aggregate-type", "order", "--aggregate-id", "O-1",           "--json"};
  const ToolRun refused = run_docket(show);
  EXPECT_EQ(refused.exit_code, 1) << describe(refused);
  EXPECT_THAT(refused.err, HasSubstr("order:O-1"));
  EXPECT_THAT(refused.err, HasSubstr(container));

  // The scan counts both items and names the stream once; no saga container yet.
  const ToolRun scan = run_docket({"migrate", "scan", "--store", database_.url(), "--json"});
  EXPECT_EQ(scan.exit_code, 0) << describe(scan);
  const nlohmann::json report = nlohmann::json::parse(scan.out);
  EXPECT_EQ(report["provider"], "cosmos") << report.dump();
  EXPECT_EQ(report["legacy"], 2) << report.dump();
  EXPECT_EQ(report["places"][0]["examples"], nlohmann::json::array({"order:O-1"})) << report.dump();
  EXPECT_EQ(report["places"][1]["exists"], false) << "no saga container yet: " << report.dump();

  remove(cosmos_detail::event::kContainer, "0", "order:O-1");
  remove(cosmos_detail::event::kContainer, "1", "order:O-1");
  const ToolRun quiet = run_docket(show);
  EXPECT_EQ(quiet.exit_code, 0) << describe(quiet);
  EXPECT_TRUE(nlohmann::json::parse(quiet.out)["events"].empty());
}

TEST_F(CosmosInspectTest, SagasShowRefusesWhileAnUntenantedSagaRemains) {
  put(cosmos_detail::saga::kContainer, cosmos_detail::saga::kPartitionKeyPath,
      {{"id", "O-1"},
       {"sagaType", "checkout"},
       {"version", 3},
       {"state", "cGFpZA=="},
       {"status", "active"},
       {"startedAt", 1},
       {"updatedAt", 2}},
      "checkout");
  const std::string container = client_.url().container(cosmos_detail::saga::kContainer);
  const std::vector<std::string> show{"sagas",     "show", "--store",     database_.url(),
                                      "--tenant",  "acme", "--saga-type", "checkout",
                                      "--saga-id", "O-1",  "--json"};
  const ToolRun refused = run_docket(show);
  EXPECT_EQ(refused.exit_code, 1) << describe(refused);
  EXPECT_THAT(refused.err, HasSubstr("'O-1'"));
  EXPECT_THAT(refused.err, HasSubstr(container));

  remove(cosmos_detail::saga::kContainer, "O-1", "checkout");
  const ToolRun quiet = run_docket(show);
  EXPECT_EQ(quiet.exit_code, 0) << describe(quiet);
  EXPECT_TRUE(nlohmann::json::parse(quiet.out)["saga"].is_null());
}

}  // namespace
}  // namespace docket::testing
