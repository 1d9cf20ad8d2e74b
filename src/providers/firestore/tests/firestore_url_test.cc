#include "providers/firestore/firestore_url.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "docket/core/error.h"

namespace docket::firestore::detail {
namespace firestore_url_test {

using ::testing::AllOf;
using ::testing::HasSubstr;

void expect_refused(std::string_view url, std::string_view why) {
  try {
    parse_store_url(url);
    ADD_FAILURE() << url << " was accepted";
  } catch (const ConfigurationError& e) {
    EXPECT_THAT(e.what(), AllOf(HasSubstr("Firestore store URL"), HasSubstr(std::string(why)),
                                HasSubstr("Accepted forms: firestore://HOST:PORT")))
        << url;
  }
  EXPECT_TRUE(store_url_problem(url).has_value()) << url;
}

TEST(FirestoreUrl, AServerOfOnesOwnIsPlainHttpAtHostAndPort) {
  const StoreUrl url = parse_store_url("firestore://127.0.0.1:8080?project=demo&prefix=app_");
  EXPECT_FALSE(url.googleapis);
  EXPECT_EQ(url.endpoint, "http://127.0.0.1:8080");
  EXPECT_EQ(url.project, "demo");
  EXPECT_EQ(url.database, "(default)");
  EXPECT_EQ(url.prefix, "app_");
  EXPECT_EQ(url.collection("docket_claim_inbox"), "app_docket_claim_inbox");
  EXPECT_EQ(url.database_path(), "projects/demo/databases/(default)");
  EXPECT_EQ(url.document_name("c", "inbox:a%2Fb"),
            "projects/demo/databases/(default)/documents/c/inbox:a%2Fb");
  EXPECT_EQ(store_url_problem(url.text), std::nullopt);
}

TEST(FirestoreUrl, TheServiceIsHttpsAtGoogleapisWithANamedDatabase) {
  const StoreUrl url = parse_store_url("firestore://googleapis?database=orders-db&project=p-1");
  EXPECT_TRUE(url.googleapis);
  EXPECT_EQ(url.endpoint, "https://firestore.googleapis.com");
  EXPECT_EQ(url.database, "orders-db");
  EXPECT_EQ(url.prefix, "");
  EXPECT_EQ(parse_store_url("firestore://[::1]:8080/?project=x&database=(default)").endpoint,
            "http://[::1]:8080");
}

TEST(FirestoreUrl, RefusesWhatItCannotUseNamingTheProblem) {
  expect_refused("dynamodb://127.0.0.1:8080?project=p", "does not start with firestore://");
  expect_refused("firestore://127.0.0.1:8080", "names no project");
  expect_refused("firestore://127.0.0.1?project=p", "needs a port");
  expect_refused("firestore://127.0.0.1:0?project=p", "needs a port");
  expect_refused("firestore://?project=p", "is neither 'googleapis'");
  expect_refused("firestore://user:pw@127.0.0.1:8080?project=p", "user info");
  expect_refused("firestore://127.0.0.1:8080/db?project=p", "has the path '/db'");
  expect_refused("firestore://127.0.0.1:8080?project=p#x", "fragment");
  expect_refused("firestore://127.0.0.1:8080?project=p&project=q", "project twice");
  expect_refused("firestore://127.0.0.1:8080?project=P", "is not a Google Cloud project id");
  expect_refused("firestore://127.0.0.1:8080?project=p&database=ab", "database 'ab'");
  expect_refused("firestore://127.0.0.1:8080?project=p&prefix=__x", "cannot begin");
  expect_refused("firestore://127.0.0.1:8080?project=p&prefix=a/b", "cannot begin");
  expect_refused("firestore://127.0.0.1:8080?project=p&prefix=", "cannot begin");
  expect_refused("firestore://127.0.0.1:8080?project=p&table_prefix=x", "unknown parameter");
  expect_refused("firestore://127.0.0.1:8080?project", "is not NAME=VALUE");
}

TEST(FirestoreUrl, ARefusedUrlNeverEchoesAPassword) {
  try {
    parse_store_url("firestore://user:s3cret@127.0.0.1:8080?project=p");
    FAIL() << "accepted";
  } catch (const ConfigurationError& e) {
    EXPECT_THAT(e.what(), ::testing::Not(HasSubstr("s3cret")));
  }
}

TEST(FirestoreUrl, AQuotedParameterValueNeverEchoesAPassword) {
  for (const std::string url : {"firestore://127.0.0.1:8080?project=p?password=s3cret",
                                "firestore://127.0.0.1:8080?project=p&database=ab#password=s3cret",
                                "firestore://127.0.0.1:8080?project=p&prefix=a?password=s3cret"}) {
    SCOPED_TRACE(url);
    try {
      parse_store_url(url);
      FAIL() << "accepted";
    } catch (const ConfigurationError& e) {
      EXPECT_THAT(e.what(), AllOf(HasSubstr("password=***"), ::testing::Not(HasSubstr("s3cret"))));
    }
  }
}

}  // namespace firestore_url_test
}  // namespace docket::firestore::detail
