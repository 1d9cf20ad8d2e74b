// Where a query goes, as sent on the wire to a loopback HTTP server: a query of one
// partition carries that partition's key header and no cross-partition header (so the
// service reads that partition alone and serves ORDER BY and TOP there); a query of
// every partition carries the cross-partition header and no partition key.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "providers/cosmos/cosmos_client.h"
#include "providers/cosmos/cosmos_items.h"
#include "support/loopback_http_server.h"

namespace docket::cosmos::detail {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// The request a query sends, head and body, to a server answering an empty page.
std::string sent_query(const Query& query) {
  const auto server = test_support::LoopbackHttpServer::answering(200, R"({"Documents":[]})");
  const Client client(parse_store_url("cosmos://127.0.0.1:" + std::to_string(server.port()) +
                                      "?database=app&key=QUJD&tls=off"));
  EXPECT_TRUE(query_page(client, query, 10).items.empty());
  const std::vector<std::string> requests = server.requests();
  EXPECT_EQ(requests.size(), 1u);
  return requests.empty() ? std::string() : requests.front();
}

TEST(CosmosQueryScope, AQueryOfOnePartitionIsSentWithItsKeyAndNotAcrossPartitions) {
  const std::string request =
      sent_query({.container = "events",
                  .sql = "SELECT TOP 1 VALUE c.version FROM c WHERE c.streamId = @s ORDER BY "
                         "c.version DESC",
                  .parameters = {{{"name", "@s"}, {"value", "t:acme:order:1"}}},
                  .partition = "t:acme:order:1"});
  EXPECT_THAT(request, HasSubstr("x-ms-documentdb-partitionkey: [\"t:acme:order:1\"]"));
  EXPECT_THAT(request, Not(HasSubstr("enablecrosspartition")));
  EXPECT_THAT(request, HasSubstr("POST /dbs/app/colls/events/docs"));
}

TEST(CosmosQueryScope, AQueryOfEveryPartitionIsSentAcrossPartitionsWithoutAKey) {
  const std::string request =
      sent_query({.container = "sagas", .sql = "SELECT * FROM c WHERE c.status = 'completed'"});
  EXPECT_THAT(request, HasSubstr("x-ms-documentdb-query-enablecrosspartition: True"));
  EXPECT_THAT(request, Not(HasSubstr("x-ms-documentdb-partitionkey")));
}

}  // namespace
}  // namespace docket::cosmos::detail
