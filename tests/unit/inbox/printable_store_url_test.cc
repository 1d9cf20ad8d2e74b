// printable_store_url masks exactly the password of a store URL and nothing else.
#include "docket/stores/printable_store_url.h"

#include <gtest/gtest.h>

namespace docket {
namespace {

TEST(PrintableStoreUrl, MasksTheUserInfoPassword) {
  EXPECT_EQ(printable_store_url("postgresql://app:s3cret@db:5432/orders?sslmode=require"),
            "postgresql://app:***@db:5432/orders?sslmode=require");
  EXPECT_EQ(printable_store_url("postgres://app:s3cret@db/orders"), "postgres://app:***@db/orders");
}

TEST(PrintableStoreUrl, MasksAPasswordContainingColonsAndEncodedAt) {
  EXPECT_EQ(printable_store_url("postgresql://app:a:b%40c@db/orders"),
            "postgresql://app:***@db/orders");
}

TEST(PrintableStoreUrl, MasksEveryPasswordQueryParameter) {
  EXPECT_EQ(
      printable_store_url("postgresql://db/orders?user=app&password=s3cret&sslmode=verify-full"),
      "postgresql://db/orders?user=app&password=***&sslmode=verify-full");
  EXPECT_EQ(printable_store_url("postgresql://u:p@db/o?password=x&password=y"),
            "postgresql://u:***@db/o?password=***&password=***");
  EXPECT_EQ(printable_store_url("postgresql://db/o?password=s3cret#frag"),
            "postgresql://db/o?password=***#frag");
}

// What libpq reads as a password is masked even where a URL's authority or query
// would end earlier (found by tests/fuzz/store_url_fuzz.cc).
TEST(PrintableStoreUrl, MasksWhatLibpqReadsAsThePassword) {
  EXPECT_EQ(printable_store_url("postgresql://u?x:s3cret@db/o"), "postgresql://u?x:***@db/o");
  EXPECT_EQ(printable_store_url("postgresql://db/o?a=1#x&password=s3cret"),
            "postgresql://db/o?a=1#x&password=***");
  EXPECT_EQ(printable_store_url("postgresql://db/o?a=1?password=s3cret"),
            "postgresql://db/o?a=1?password=***");
}

// A password written by mistake into a URL of a provider whose URLs carry none.
TEST(PrintableStoreUrl, MasksAPasswordInAnyProvidersUrl) {
  EXPECT_EQ(printable_store_url("sqlite://?password=s3cret"), "sqlite://?password=***");
  EXPECT_EQ(printable_store_url("sqlite://app:s3cret@x.db"), "sqlite://app:***@x.db");
}

TEST(PrintableStoreUrl, LeavesUrlsWithoutPasswordsAlone) {
  for (const char* url :
       {"postgresql://docket@127.0.0.1:55432/docket", "postgresql://db/o?sslmode=require",
        "postgresql://db/o?mypassword=kept", "sqlite:///tmp/user:pass@x.db",
        "sqlite::memory:", "memory:", "postgresql://host:5432/db"}) {
    EXPECT_EQ(printable_store_url(url), url) << url;
  }
}

}  // namespace
}  // namespace docket
