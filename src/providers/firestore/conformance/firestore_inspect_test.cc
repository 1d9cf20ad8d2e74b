// docket sagas show on the Cloud Firestore emulator while a saga document of an earlier
// release's untenanted shape ({sagaId}_{sagaType}) is present (written here raw): the
// command exits 1 with the legacy-key guard's message naming the collection and the
// id, docket migrate scan counts it, and the command answers normally once the legacy
// document is gone, which is how an operator checks a re-key.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <span>
#include <string>

#include "providers/firestore/firestore_client.h"
#include "providers/firestore/firestore_documents.h"
#include "providers/firestore/firestore_saga_document.h"
#include "providers/firestore/firestore_value.h"
#include "providers/firestore/tests/firestore_collections.h"
#include "tool/tool_runner.h"

namespace docket::testing {
namespace {

using ::testing::HasSubstr;

TEST(FirestoreInspect, SagasShowRefusesWhileAnUntenantedSagaRemains) {
  const test_support::FirestoreCollections collections;
  const firestore::detail::Client client(firestore::detail::parse_store_url(collections.url()));
  const std::string sagas = client.url().collection(firestore::detail::saga::kCollection);
  const firestore::detail::Write legacy{
      .collection = sagas,
      .id = "O-1_checkout",
      .fields = nlohmann::json{{"version", firestore::detail::integer_value(3)},
                               {"state", firestore::detail::bytes_value("paid")},
                               {"status", firestore::detail::string_value("active")}}};
  ASSERT_TRUE(firestore::detail::commit(
                  client, std::span<const firestore::detail::Write>(&legacy, 1), "the test")
                  .applied);
  const std::vector<std::string> show{"sagas",     "show", "--store",     collections.url(),
                                      "--tenant",  "acme", "--saga-type", "checkout",
                                      "--saga-id", "O-1",  "--json"};
  const ToolRun refused = run_docket(show);
  EXPECT_EQ(refused.exit_code, 1) << describe(refused);
  EXPECT_THAT(refused.err, HasSubstr("O-1_checkout"));
  EXPECT_THAT(refused.err, HasSubstr(sagas));
  const ToolRun scan = run_docket({"migrate", "scan", "--store", collections.url(), "--json"});
  EXPECT_EQ(scan.exit_code, 0) << describe(scan);
  const nlohmann::json report = nlohmann::json::parse(scan.out);
  EXPECT_EQ(report["legacy"], 1) << report.dump();
  EXPECT_EQ(report["places"][1]["examples"], nlohmann::json::array({"O-1_checkout"}))
      << report.dump();
  EXPECT_EQ(report["places"][0]["exists"], false) << "no event documents: " << report.dump();

  const firestore::detail::Write remove{
      .collection = sagas, .id = "O-1_checkout", .fields = std::nullopt};
  ASSERT_TRUE(firestore::detail::commit(
                  client, std::span<const firestore::detail::Write>(&remove, 1), "the test")
                  .applied);
  const ToolRun quiet = run_docket(show);
  EXPECT_EQ(quiet.exit_code, 0) << describe(quiet);
  EXPECT_TRUE(nlohmann::json::parse(quiet.out)["saga"].is_null());
}

}  // namespace
}  // namespace docket::testing
