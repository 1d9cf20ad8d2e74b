// The Firestore checkpoint store against the emulator: the checkpoint conformance
// cases (tests/conformance/checkpoint_test.cc, which run through an inbox store the
// Firestore provider does not have), with the collection read directly.
#include "providers/firestore/firestore_checkpoint_store.h"

#include <gtest/gtest.h>

#include "docket/error.h"
#include "docket/inbox_options.h"
#include "docket/open_checkpoint_store.h"
#include "docket/tenant.h"
#include "providers/firestore/firestore_query.h"
#include "support/firestore_collections.h"

namespace docket::firestore {
namespace firestore_checkpoint_store_test {

class FirestoreCheckpointStoreTest : public ::testing::Test {
 protected:
  // The documents of the checkpoint collection.
  std::vector<Document> documents() const {
    const Client client(parse_store_url(collections_.url()));
    return run_query(client, {.collection = client.url().collection(kCheckpointCollectionBase)});
  }

  test_support::FirestoreCollections collections_;
  std::unique_ptr<CheckpointStore> store_ = docket::open_checkpoint_store(collections_.url());
};

TEST_F(FirestoreCheckpointStoreTest, SecondSetReplacesTheFirstInOneDocument) {
  EXPECT_EQ(store_->get("feed-reader"), std::nullopt);
  store_->set("feed-reader", "cursor-1");
  store_->set("feed-reader", "cursor-2");
  EXPECT_EQ(store_->get("feed-reader"), "cursor-2");
  const std::vector<Document> all = documents();
  ASSERT_EQ(all.size(), 1u);
  EXPECT_EQ(all.front().id, "t:" + std::string(kUntenantedSentinel) + ":feed-reader");
}

TEST_F(FirestoreCheckpointStoreTest, ConsumersAndTenantsHaveTheirOwnPositions) {
  store_->set("a", "1");
  store_->set("b/c", "2");
  {
    TenantScope acme(TenantId("acme"));
    EXPECT_EQ(store_->get("a"), std::nullopt);
    store_->set("a", "acme-1");
    EXPECT_EQ(store_->get("a"), "acme-1");
  }
  EXPECT_EQ(store_->get("a"), "1");
  EXPECT_EQ(store_->get("b/c"), "2");
  EXPECT_EQ(documents().size(), 3u);
}

TEST_F(FirestoreCheckpointStoreTest, BlankOrInvalidValuesAreRefusedAndNothingIsWritten) {
  EXPECT_THROW(store_->set("", "cursor-1"), InvalidInputError);
  EXPECT_THROW(store_->set("reader", ""), InvalidInputError);
  EXPECT_THROW(store_->set("reader", "\xFF"), InvalidInputError);
  EXPECT_THROW(store_->set(std::string(kMaxConsumerIdChars + 1, 'c'), "x"), InvalidInputError);
  // Over Firestore's document limit: refused before anything is sent.
  EXPECT_THROW(store_->set("reader", std::string(1024 * 1024, 'p')), InvalidInputError);
  EXPECT_EQ(store_->get("reader"), std::nullopt);
  EXPECT_TRUE(documents().empty());
}

TEST_F(FirestoreCheckpointStoreTest, AnotherStoreOnTheUrlSeesThePosition) {
  store_->set("projector", "42");
  EXPECT_EQ(docket::open_checkpoint_store(collections_.url())->get("projector"), "42");
}

}  // namespace firestore_checkpoint_store_test
}  // namespace docket::firestore
