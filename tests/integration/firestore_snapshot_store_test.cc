// The Firestore snapshot store against the Cloud Firestore emulator: a snapshot comes
// back byte for byte, never regresses (a lower version is kept out, the same or a
// higher one replaces it, concurrent savers leave the highest), each tenant has its
// own, an awkward stream id is one document, and it states the snapshot store's
// capabilities.
#include "providers/firestore/firestore_snapshot_store.h"

#include <gtest/gtest.h>

#include <barrier>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "docket/error.h"
#include "docket/open_snapshot_store.h"
#include "support/firestore_collections.h"

namespace docket::firestore::snapshot_store_test {
namespace {

class FirestoreSnapshotStoreTest : public ::testing::Test {
 protected:
  static StreamId account(std::string_view id, std::string_view tenant = "acme") {
    return StreamId(TenantId(tenant), "account", id);
  }

  test_support::FirestoreCollections collections_;
  ManualClock clock_{Timestamp(std::chrono::seconds(1'800'000'000))};
  std::unique_ptr<SnapshotStore> store_ = docket::open_snapshot_store(collections_.url(), clock_);
};

TEST_F(FirestoreSnapshotStoreTest, SavesAndLoadsByteForByte) {
  EXPECT_EQ(store_->load(account("A-1")), std::nullopt);
  const std::string payload("\0\x01\xff state", 9);
  EXPECT_EQ(store_->save(account("A-1"), 3, payload), SnapshotSaveOutcome::kSaved);
  EXPECT_EQ(store_->load(account("A-1")),
            (Snapshot{.version = 3, .payload = payload, .taken_at = clock_.now()}));
}

TEST_F(FirestoreSnapshotStoreTest, NeverRegresses) {
  ASSERT_EQ(store_->save(account("A-1"), 5, "five"), SnapshotSaveOutcome::kSaved);
  EXPECT_EQ(store_->save(account("A-1"), 4, "four"), SnapshotSaveOutcome::kKeptNewer);
  EXPECT_EQ(store_->load(account("A-1"))->payload, "five");
  EXPECT_EQ(store_->save(account("A-1"), 5, "five again"), SnapshotSaveOutcome::kSaved);
  EXPECT_EQ(store_->load(account("A-1"))->payload, "five again");
  EXPECT_EQ(store_->save(account("A-1"), 9, "nine"), SnapshotSaveOutcome::kSaved);
  EXPECT_EQ(store_->load(account("A-1"))->version, 9);
  EXPECT_THROW(store_->save(account("A-1"), -1, "x"), InvalidInputError);
}

TEST_F(FirestoreSnapshotStoreTest, EachTenantHasItsOwnSnapshot) {
  ASSERT_EQ(store_->save(account("A-1", "acme"), 7, "acme"), SnapshotSaveOutcome::kSaved);
  EXPECT_EQ(store_->load(account("A-1", "globex")), std::nullopt);
  EXPECT_EQ(store_->save(account("A-1", "globex"), 1, "globex"), SnapshotSaveOutcome::kSaved);
  EXPECT_EQ(store_->load(account("A-1", "acme"))->payload, "acme");
  EXPECT_EQ(store_->load(account("A-1", "globex"))->payload, "globex");
}

TEST_F(FirestoreSnapshotStoreTest, AnAwkwardStreamIsOneDocumentAndOverTheLimitIsRefused) {
  const StreamId awkward(TenantId::untenanted(), "account", "A/1:x__");
  ASSERT_EQ(store_->save(awkward, 1, "one"), SnapshotSaveOutcome::kSaved);
  EXPECT_EQ(store_->load(awkward)->payload, "one");
  EXPECT_EQ(store_->load(StreamId(TenantId::untenanted(), "account", "A")), std::nullopt);
  EXPECT_THROW(store_->save(account("A-2"), 1, std::string(1024 * 1024, 'p')), InvalidInputError);
  EXPECT_EQ(store_->load(account("A-2")), std::nullopt);
}

TEST_F(FirestoreSnapshotStoreTest, ConcurrentSavesKeepTheHighestVersion) {
  constexpr int kSavers = 8;
  std::barrier start(kSavers);
  std::vector<std::thread> savers;
  for (int v = 1; v <= kSavers; ++v) {
    savers.emplace_back([&, v] {
      start.arrive_and_wait();
      store_->save(account("A-1"), v, "v" + std::to_string(v));
    });
  }
  for (std::thread& saver : savers) {
    saver.join();
  }
  EXPECT_EQ(store_->load(account("A-1"))->version, kSavers);
  EXPECT_EQ(store_->load(account("A-1"))->payload, "v" + std::to_string(kSavers));
}

TEST_F(FirestoreSnapshotStoreTest, StatesASnapshotStoresCapabilities) {
  const StoreCapabilities caps = store_->capabilities();
  EXPECT_FALSE(caps.joins_handler_writes);
  EXPECT_FALSE(caps.interactive_transactions);
  EXPECT_EQ(caps.feed, FeedKind::kNone);
  EXPECT_TRUE(caps.shared_between_processes);
  EXPECT_EQ(store_->provider_name(), "firestore");
}

}  // namespace
}  // namespace docket::firestore::snapshot_store_test
