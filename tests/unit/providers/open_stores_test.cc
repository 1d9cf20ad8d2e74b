// The URL factories the registry serves that the inbox tests do not cover: the
// checkpoint store opened on its own (the same table an inbox store on that URL keeps
// its checkpoints in, alive for as long as the store), and the claim inbox, which no
// provider offers yet and which is refused clearly.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "conformance/eventsourcing/temp_dir.h"
#include "docket/error.h"
#include "docket/open_checkpoint_store.h"
#include "docket/open_claim_inbox_store.h"
#include "docket/open_inbox_store.h"
#include "docket/tenant.h"
#if DOCKET_HAVE_POSTGRES
#include "support/postgres_schema.h"
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
  for (const std::string url : {"redis://localhost", "memory:x", ""}) {
    try {
      open_checkpoint_store(url);
      ADD_FAILURE() << "opened '" << url << "'";
    } catch (const ConfigurationError& e) {
      EXPECT_THAT(e.what(), HasSubstr("checkpoint store URL '" + url + "'"));
      EXPECT_THAT(e.what(), HasSubstr("use one of: memory:"));
    }
  }
}

TEST(OpenClaimInboxStore, IsRefusedWhileNoProviderOffersOne) {
  try {
    open_claim_inbox_store("memory:");
    FAIL() << "the memory provider offers no claim inbox store yet";
  } catch (const ConfigurationError& e) {
    EXPECT_THAT(e.what(), HasSubstr("claim inbox store URL 'memory:'"));
    EXPECT_THAT(e.what(), HasSubstr("the memory provider offers no claim inbox store"));
  }
}

}  // namespace
}  // namespace docket
