// Cosmos DB's master-key signature (kit/http/cosmos_master_key.h) against the worked
// example of Microsoft's REST API reference, "Access control on Cosmos DB resources":
// verb GET, resource type dbs, resource link dbs/ToDoList, date Thu, 27 Apr 2017 00:51:12
// GMT, and the example's key, whose authorization string the page gives. The test server
// checks no signature, so this is what proves the signing right.
#include "providers/kit/http/cosmos_master_key.h"

#include <gtest/gtest.h>

#include <chrono>

namespace docket::kit::http {
namespace {

// The example key of the documentation page (not a real account's).
constexpr std::string_view kDocumentedKey =
    "dsZQi3KtZmCv1ljt3VNWNm7sQUF1y5rJfC6kv5JiwvW0EndXdDku/dkKBp8/ufDToSxLzR4y+O/0H/t4bQtVNw==";

const CosmosSignedResource kDocumentedRequest{.verb = "GET",
                                              .resource_type = "dbs",
                                              .resource_link = "dbs/ToDoList",
                                              .date = "Thu, 27 Apr 2017 00:51:12 GMT"};

TEST(CosmosMasterKey, EqualsTheDocumentedExample) {
  const std::optional<CosmosMasterKey> key = CosmosMasterKey::from_base64(kDocumentedKey);
  ASSERT_TRUE(key.has_value());
  EXPECT_EQ(key->authorization(kDocumentedRequest),
            "type%3dmaster%26ver%3d1.0%26sig%3dc09PEVJrgp2uQRkr934kFbTqhByc7TVr3OHyqlu%2bc%2bc%3d");
  EXPECT_EQ(key->signature(kDocumentedRequest), "c09PEVJrgp2uQRkr934kFbTqhByc7TVr3OHyqlu+c+c=");
}

TEST(CosmosMasterKey, SignsLowerCasedVerbTypeAndDateButKeepsTheLinksCase) {
  EXPECT_EQ(cosmos_string_to_sign(kDocumentedRequest),
            "get\ndbs\ndbs/ToDoList\nthu, 27 apr 2017 00:51:12 gmt\n\n");
}

TEST(CosmosMasterKey, AnotherLinkOrVerbSignsDifferently) {
  const CosmosMasterKey key = CosmosMasterKey::from_base64(kDocumentedKey).value();
  CosmosSignedResource other = kDocumentedRequest;
  other.resource_link = "dbs/todolist";
  EXPECT_NE(key.signature(other), key.signature(kDocumentedRequest));
  other = kDocumentedRequest;
  other.verb = "POST";
  EXPECT_NE(key.signature(other), key.signature(kDocumentedRequest));
}

TEST(CosmosMasterKey, RefusesAKeyThatIsNotBase64) {
  EXPECT_FALSE(CosmosMasterKey::from_base64("").has_value());
  EXPECT_FALSE(CosmosMasterKey::from_base64("not base64!").has_value());
  EXPECT_FALSE(CosmosMasterKey::from_base64("abc").has_value());  // unpadded
}

TEST(CosmosMasterKey, DatesAsTheServiceReadsThem) {
  using namespace std::chrono;
  const sys_seconds at = sys_days{year{2017} / April / 27} + hours{0} + minutes{51} + seconds{12};
  EXPECT_EQ(cosmos_http_date(at), "Thu, 27 Apr 2017 00:51:12 GMT");
  const sys_seconds later = sys_days{year{2026} / December / 6} + hours{19} + minutes{5};
  EXPECT_EQ(cosmos_http_date(later), "Sun, 06 Dec 2026 19:05:00 GMT");
}

}  // namespace
}  // namespace docket::kit::http
