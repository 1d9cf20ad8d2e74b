// The URL factories the registry serves that the inbox tests do not cover: the
// checkpoint store opened on its own (the same table an inbox store on that URL keeps
// its checkpoints in, alive for as long as the store), and the claim inbox on every
// provider.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "conformance/eventsourcing/temp_dir.h"
#include "docket/core/error.h"
#include "docket/core/tenant.h"
#include "docket/stores/open_store.h"
#if DOCKET_HAVE_POSTGRES
#include "providers/postgres/tests/postgres_schema.h"
#endif

namespace docket {
namespace {

using ::testing::HasSubstr;

TEST(OpenCheckpointStore, AMemoryStoreKeepsItsOwnDatabase) {
  auto store = open_checkpoint_store("memory:");
  EXPECT_EQ(store->get("projector"), std::nullopt);
  store->set("projector", "42");
  EXPECT_EQ(store->get("projector"), "42");
  EXPECT_EQ(open_checkpoint_store("memory:")->get("projector"), std::nullopt);
}

// A checkpoint set through a store opened on its own is the inbox store's checkpoint
// on the same URL, and the other way round; each tenant has its own.
void expect_shared_with_the_inbox(const std::string& url) {
  {
    auto alone = open_checkpoint_store(url);  // the only handle on the database
    const TenantScope acme(TenantId("acme"));
    alone->set("projector", "7");
  }
  auto inbox = open_inbox_store(url);
  {
    const TenantScope acme(TenantId("acme"));
    EXPECT_EQ(inbox->checkpoints().get("projector"), "7");
    inbox->checkpoints().set("projector", "8");
    EXPECT_EQ(open_checkpoint_store(url)->get("projector"), "8");
  }
  const TenantScope other(TenantId("globex"));
  EXPECT_EQ(open_checkpoint_store(url)->get("projector"), std::nullopt);
}

#if DOCKET_HAVE_SQLITE
TEST(OpenCheckpointStore, AnSqliteFileIsTheInboxStoresCheckpoints) {
  const conformance::eventsourcing::TempDir dir;
  expect_shared_with_the_inbox("sqlite://" + dir.file("app.db"));
}
#endif

#if DOCKET_HAVE_POSTGRES
TEST(OpenCheckpointStore, APostgresUrlIsTheInboxStoresCheckpoints) {
  const test_support::PostgresSchema schema;
  expect_shared_with_the_inbox(schema.url());
}
#endif

TEST(OpenCheckpointStore, BadUrlsAreRefusedListingTheSchemes) {
  for (const std::string url : {"cassandra://localhost", "memory:x", ""}) {
    try {
      open_checkpoint_store(url);
      ADD_FAILURE() << "opened '" << url << "'";
    } catch (const ConfigurationError& e) {
      EXPECT_THAT(e.what(), HasSubstr("checkpoint store URL '" + url + "'"));
      EXPECT_THAT(e.what(), HasSubstr("use one of: memory:"));
    }
  }
}

#if DOCKET_HAVE_POSTGRES
// A connection string libpq cannot parse is refused by the registry, before any
// connection is tried, with its password redacted.
TEST(OpenCheckpointStore, APostgresUrlLibpqCannotParseIsRefusedWithoutItsPassword) {
  const std::string url = "postgresql://app:s3cretpw@127.0.0.1:1/db?no_such_option=1";
  try {
    open_checkpoint_store(url);
    ADD_FAILURE() << "opened '" << url << "'";
  } catch (const ConfigurationError& e) {
    EXPECT_THAT(e.what(), HasSubstr("checkpoint store URL 'postgresql://app:***@127.0.0.1:1/db"));
    EXPECT_THAT(e.what(), HasSubstr("cannot be parsed"));
    EXPECT_THAT(e.what(), HasSubstr("no_such_option"));
    EXPECT_THAT(e.what(), ::testing::Not(HasSubstr("s3cretpw")));
  }
}
#endif

// A claim opened through one URL is seen by a store opened later on the same URL.
void expect_claim_inbox_by_url(const std::string& url, bool shared) {
  const ClaimKey key(TenantId("acme"), "m-1", "billing.Invoice");
  auto first = open_claim_inbox_store(url);
  EXPECT_EQ(first->capabilities().shared_between_processes, shared);
  ASSERT_EQ(first->try_claim(key, "w", std::chrono::seconds(30)).outcome, ClaimOutcome::kClaimed);
  if (shared) {
    EXPECT_EQ(open_claim_inbox_store(url)->try_claim(key, "v", std::chrono::seconds(30)).outcome,
              ClaimOutcome::kHeldByAnother);
  }
}

TEST(OpenClaimInboxStore, OpensOnMemory) {
  expect_claim_inbox_by_url("memory:", false);
}

#if DOCKET_HAVE_SQLITE
TEST(OpenClaimInboxStore, OpensOnAnSqliteFile) {
  const conformance::eventsourcing::TempDir dir;
  expect_claim_inbox_by_url("sqlite://" + dir.file("app.db"), true);
}
#endif

#if DOCKET_HAVE_POSTGRES
TEST(OpenClaimInboxStore, OpensOnPostgres) {
  const test_support::PostgresSchema schema;
  expect_claim_inbox_by_url(schema.url(), true);
}
#endif

TEST(OpenClaimInboxStore, BadUrlsAreRefusedNamingTheStore) {
  try {
    open_claim_inbox_store("nosuch://x");
    FAIL() << "opened a URL of no provider";
  } catch (const ConfigurationError& e) {
    EXPECT_THAT(e.what(), HasSubstr("claim inbox store URL 'nosuch://x'"));
  }
}

}  // namespace
}  // namespace docket
