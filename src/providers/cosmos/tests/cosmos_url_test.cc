// The Cosmos DB store URL (cosmos_url.h): what it accepts, and that every refusal names
// what was wrong and never prints the key.
#include "providers/cosmos/cosmos_url.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "docket/core/error.h"

namespace docket::cosmos::detail {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// The emulator's published key, percent-encoded as a URL carries it.
constexpr std::string_view kKey =
    "C2y6yDjf5%2FR%2Bob0N8A7Cgv30VRDJIWEHLM%2B4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw%"
    "2FJw%3D%3D";

std::string url_with(std::string_view rest) {
  return "cosmos://127.0.0.1:28700?database=app&key=" + std::string(kKey) + std::string(rest);
}

std::string refusal(const std::string& url) {
  try {
    parse_store_url(url);
  } catch (const ConfigurationError& error) {
    return error.what();
  }
  ADD_FAILURE() << "accepted " << url;
  return "";
}

TEST(CosmosUrl, AcceptsTheServiceAndATestServer) {
  const StoreUrl service = parse_store_url(
      "cosmos://acct.documents.azure.com:443?database=app&key=" + std::string(kKey));
  EXPECT_EQ(service.endpoint, "https://acct.documents.azure.com:443");
  EXPECT_EQ(service.database, "app");
  EXPECT_EQ(service.prefix, "");
  const StoreUrl local = parse_store_url(url_with("&prefix=orders_&tls=off"));
  EXPECT_EQ(local.endpoint, "http://127.0.0.1:28700");
  EXPECT_EQ(local.container("docket_claim_inbox"), "orders_docket_claim_inbox");
  EXPECT_EQ(local.ca_file, "");
  const StoreUrl own_certificate =
      parse_store_url(url_with("&ca=%2Ftmp%2Fdocket%20cosmos%2Fcert.pem"));
  EXPECT_EQ(own_certificate.endpoint, "https://127.0.0.1:28700");
  EXPECT_EQ(own_certificate.ca_file, "/tmp/docket cosmos/cert.pem");
}

TEST(CosmosUrl, NeverPrintsTheKey) {
  const StoreUrl url = parse_store_url(url_with("&tls=off"));
  EXPECT_THAT(url.printable, Not(HasSubstr("C2y6")));
  EXPECT_THAT(printable_url(url_with("&tls=off")), Not(HasSubstr("C2y6")));
  EXPECT_THAT(refusal(url_with("&colour=blue")), Not(HasSubstr("C2y6")));
}

TEST(CosmosUrl, RefusesWhatItCannotUseNamingIt) {
  EXPECT_THAT(refusal("cosmos://127.0.0.1:28700?key=" + std::string(kKey)),
              HasSubstr("names no database"));
  EXPECT_THAT(refusal("cosmos://127.0.0.1:28700?database=app"), HasSubstr("names no master key"));
  EXPECT_THAT(refusal("cosmos://127.0.0.1:28700?database=app&key=%21%21"),
              HasSubstr("key is not base64"));
  EXPECT_THAT(refusal("cosmos://127.0.0.1:28700?database=app&key=%zz"), HasSubstr("'%'"));
  EXPECT_THAT(refusal(url_with("&database=other")), HasSubstr("database twice"));
  EXPECT_THAT(refusal(url_with("&tls=on")), HasSubstr("tls=off"));
  EXPECT_THAT(refusal(url_with("&ca=/tmp/cert.pem&tls=off")), HasSubstr("leave out one"));
  EXPECT_THAT(refusal(url_with("&ca=cert.pem")), HasSubstr("absolute path"));
  EXPECT_THAT(refusal(url_with("&ca=/a&ca=/b")), HasSubstr("ca twice"));
  EXPECT_THAT(refusal(url_with("&prefix=a/b")), HasSubstr("prefix"));
  EXPECT_THAT(refusal(url_with("&colour=blue")), HasSubstr("unknown parameter 'colour'"));
  EXPECT_THAT(refusal("cosmos://127.0.0.1:28700?database=a%2Fb&key=" + std::string(kKey)),
              HasSubstr("database"));
  EXPECT_THAT(refusal("cosmos://127.0.0.1?database=app&key=" + std::string(kKey)),
              HasSubstr("443"));
  EXPECT_THAT(refusal("cosmos://user@127.0.0.1:28700?database=app&key=" + std::string(kKey)),
              HasSubstr("user info"));
  EXPECT_THAT(refusal("cosmosdb://127.0.0.1:28700?database=app"), HasSubstr("cosmos://"));
  EXPECT_FALSE(store_url_problem(url_with("")).has_value());
}

}  // namespace
}  // namespace docket::cosmos::detail
