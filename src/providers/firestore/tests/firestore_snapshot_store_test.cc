// The Firestore snapshot store's own cases against the Cloud Firestore emulator:
// concurrent savers leave the highest version, and an awkward stream id is one document.
// What every snapshot store does is the event sourcing conformance suite's (its fixture
// is in src/providers/firestore/conformance/).
#include "providers/firestore/firestore_snapshot_store.h"

#include <gtest/gtest.h>

#include <barrier>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "docket/core/error.h"
#include "docket/stores/open_store.h"
#include "providers/firestore/tests/firestore_collections.h"

namespace docket::firestore::detail::snapshot_store_test {
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

}  // namespace
}  // namespace docket::firestore::detail::snapshot_store_test
