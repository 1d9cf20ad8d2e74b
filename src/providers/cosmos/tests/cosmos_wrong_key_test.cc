// A wrong master key, against docket's patch of the test server, which checks every
// request's signature as the service does (scripts/cosmos/docket-cosmos-server.js, the
// patch's 4th part): a store opened with a key that is not the account's is refused with a
// ConfigurationError naming key= as the cause, and writes nothing; a request signed right
// but dated more than 15 minutes off the server's clock is refused with 403. The package as
// published (DOCKET_COSMOS_UNPATCHED=1, a server of the test's own) takes the wrong key:
// the patch is what checks, so these cases fail against an unpatched shared server.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <variant>

#include "conformance/eventsourcing/temp_dir.h"
#include "docket/core/error.h"
#include "docket/core/tenant.h"
#include "docket/stores/open_store.h"
#include "providers/cosmos/cosmos_client.h"
#include "providers/cosmos/tests/cosmos_database.h"
#include "providers/kit/http/http_client.h"
#include "support/loopback_http_server.h"
#include "support/own_server.h"

namespace docket::cosmos::detail {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// A master key (64 bytes, base64, percent-encoded) that is no test server's.
constexpr std::string_view kWrongKeyInUrl =
    "d3Jvbmd3cm9uZ3dyb25nd3Jvbmd3cm9uZ3dyb25nd3Jvbmd3cm9uZ3dyb25nd3Jvbmd3cm9uZ3dyb25nd3Jvbmc%3D";

// `url` with its key= replaced by the wrong key.
std::string with_wrong_key(std::string url) {
  const std::size_t start = url.find("key=") + 4;
  const std::size_t end = url.find('&', start);
  url.replace(start, end == std::string::npos ? std::string::npos : end - start, kWrongKeyInUrl);
  return url;
}

// Whether the database `url` names exists, asked with `url`'s own key.
bool database_exists(const std::string& url) {
  const Client client(parse_store_url(url));
  const Request request{.what = "read of the test database",
                        .resource_type = "dbs",
                        .resource_link = "dbs/" + client.url().database,
                        .path = "/dbs/" + client.url().database,
                        .replay = Replay::kSafe};
  const Response response = client.send(request);
  if (response.status != 200 && response.status != 404) {
    client.fail(request, response);
  }
  return response.status == 200;
}

TEST(CosmosWrongKey, AStoreWithAWrongKeyIsRefusedNamingTheKeyAndWritesNothing) {
  const test_support::CosmosDatabase database;
  const TenantScope tenant{TenantId("acme")};
  const std::string wrong = with_wrong_key(database.url());
  try {
    auto store = open_checkpoint_store(wrong);
    store->set("billing", "42");
    FAIL() << "a key that is not the account's must be refused";
  } catch (const ConfigurationError& error) {
    EXPECT_THAT(error.what(), HasSubstr("HTTP 401"));
    EXPECT_THAT(error.what(), HasSubstr("key= of the store URL is not"));
    EXPECT_THAT(error.what(), HasSubstr("Nothing was written"));
    EXPECT_THAT(error.what(), HasSubstr("key=***"));
    EXPECT_THAT(error.what(), Not(HasSubstr(kWrongKeyInUrl)));
  }
  // Not even the database was made; with the right key the store works.
  EXPECT_FALSE(database_exists(database.url()));
  auto store = open_checkpoint_store(database.url());
  store->set("billing", "42");
  EXPECT_EQ(store->get("billing"), "42");
}

TEST(CosmosWrongKey, ARequestDatedMoreThanFifteenMinutesOffIsRefused) {
  const test_support::CosmosDatabase database;
  const StoreUrl url = parse_store_url(database.url());
  const kit::http::HttpClient http("wrong key test");
  // A signature right for its date: 200 when the date is now, 403 when 20 minutes off
  // either way.
  const auto status_at = [&](std::chrono::system_clock::time_point when) {
    const std::string date = kit::http::cosmos_http_date(when);
    const kit::http::HttpRequest request{
        .method = "GET",
        .url = url.endpoint + "/dbs",
        .headers = {
            {"x-ms-date", date},
            {"x-ms-version", std::string(kApiVersion)},
            {"Authorization",
             url.key.authorization(
                 {.verb = "GET", .resource_type = "dbs", .resource_link = "", .date = date})}}};
    const kit::http::HttpResult result = http.send(request);
    return std::get<kit::http::HttpResponse>(result).status;
  };
  const auto now = std::chrono::system_clock::now();
  EXPECT_EQ(status_at(now), 200);
  EXPECT_EQ(status_at(now - std::chrono::minutes(20)), 403);
  EXPECT_EQ(status_at(now + std::chrono::minutes(20)), 403);
}

TEST(CosmosWrongKey, TheUnpatchedServerTakesAWrongKey) {
  const conformance::eventsourcing::TempDir dir;
  const testing::OwnServer server("cosmos", 1, [&](int port) {
    return "DOCKET_COSMOS_UNPATCHED=1 DOCKET_COSMOS_DIR=" +
           dir.file("cosmos-" + std::to_string(port)) +
           " DOCKET_COSMOS_PORT=" + std::to_string(port);
  });
  const TenantScope tenant{TenantId("acme")};
  auto store = open_checkpoint_store(with_wrong_key(server.url()));
  store->set("billing", "42");
  EXPECT_EQ(store->get("billing"), "42");
}

}  // namespace
}  // namespace docket::cosmos::detail
