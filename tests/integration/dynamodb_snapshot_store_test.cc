// The DynamoDB snapshot store against DynamoDB Local: a snapshot comes back byte for
// byte, never regresses (a lower version is kept out, the same or a higher one
// replaces it), each tenant has its own, and it states the snapshot store's
// capabilities.
#include "providers/dynamodb/dynamodb_snapshot_store.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "docket/error.h"
#include "docket/open_snapshot_store.h"
#include "support/dynamodb_tables.h"

namespace docket::dynamodb::snapshot_store_test {
namespace {

class DynamoDbSnapshotStoreTest : public ::testing::Test {
 protected:
  static StreamId account(std::string_view id, std::string_view tenant = "acme") {
    return StreamId(TenantId(tenant), "account", id);
  }

  test_support::DynamoDbTables tables_;
  ManualClock clock_{Timestamp(std::chrono::seconds(1'800'000'000))};
  std::unique_ptr<SnapshotStore> store_ = docket::open_snapshot_store(tables_.url(), clock_);
};

TEST_F(DynamoDbSnapshotStoreTest, SavesAndLoadsByteForByte) {
  EXPECT_EQ(store_->load(account("A-1")), std::nullopt);
  const std::string payload("\0\x01\xff state", 9);
  EXPECT_EQ(store_->save(account("A-1"), 3, payload), SnapshotSaveOutcome::kSaved);
  EXPECT_EQ(store_->load(account("A-1")),
            (Snapshot{.version = 3, .payload = payload, .taken_at = clock_.now()}));
}

TEST_F(DynamoDbSnapshotStoreTest, NeverRegresses) {
  ASSERT_EQ(store_->save(account("A-1"), 5, "five"), SnapshotSaveOutcome::kSaved);
  EXPECT_EQ(store_->save(account("A-1"), 4, "four"), SnapshotSaveOutcome::kKeptNewer);
  EXPECT_EQ(store_->load(account("A-1"))->payload, "five");
  EXPECT_EQ(store_->save(account("A-1"), 5, "five again"), SnapshotSaveOutcome::kSaved);
  EXPECT_EQ(store_->load(account("A-1"))->payload, "five again");
  EXPECT_EQ(store_->save(account("A-1"), 9, "nine"), SnapshotSaveOutcome::kSaved);
  EXPECT_EQ(store_->load(account("A-1"))->version, 9);
  EXPECT_THROW(store_->save(account("A-1"), -1, "x"), InvalidInputError);
}

TEST_F(DynamoDbSnapshotStoreTest, EachTenantHasItsOwnSnapshot) {
  ASSERT_EQ(store_->save(account("A-1", "acme"), 7, "acme"), SnapshotSaveOutcome::kSaved);
  EXPECT_EQ(store_->load(account("A-1", "globex")), std::nullopt);
  EXPECT_EQ(store_->save(account("A-1", "globex"), 1, "globex"), SnapshotSaveOutcome::kSaved);
  EXPECT_EQ(store_->load(account("A-1", "acme"))->payload, "acme");
  EXPECT_EQ(store_->load(account("A-1", "globex"))->payload, "globex");
}

TEST_F(DynamoDbSnapshotStoreTest, StatesASnapshotStoresCapabilities) {
  const StoreCapabilities caps = store_->capabilities();
  EXPECT_FALSE(caps.joins_handler_writes);
  EXPECT_FALSE(caps.interactive_transactions);
  EXPECT_EQ(caps.feed, FeedKind::kNone);
  EXPECT_TRUE(caps.shared_between_processes);
  EXPECT_EQ(store_->provider_name(), "dynamodb");
}

}  // namespace
}  // namespace docket::dynamodb::snapshot_store_test
