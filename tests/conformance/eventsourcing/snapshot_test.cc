// The snapshot store: the latest snapshot per stream, which never regresses.
#include "docket/core/error.h"
#include "suite.h"

namespace docket::conformance::eventsourcing {
namespace {

using SnapshotStoreConformance = StoreConformance;

TEST_P(SnapshotStoreConformance, SavesAndLoadsTheLatest) {
  EXPECT_FALSE(snapshots_->load(account("A-1")).has_value());
  const std::string binary("s\0\xfe", 3);
  EXPECT_EQ(snapshots_->save(account("A-1"), 3, binary), SnapshotSaveOutcome::kSaved);
  auto loaded = snapshots_->load(account("A-1"));
  ASSERT_TRUE(loaded.has_value());
  EXPECT_EQ(*loaded, (Snapshot{.version = 3, .payload = binary, .taken_at = start_}));

  clock_.advance(std::chrono::seconds(5));
  EXPECT_EQ(snapshots_->save(account("A-1"), 9, "nine"), SnapshotSaveOutcome::kSaved);
  loaded = snapshots_->load(account("A-1"));
  EXPECT_EQ(
      *loaded,
      (Snapshot{.version = 9, .payload = "nine", .taken_at = start_ + std::chrono::seconds(5)}));
  EXPECT_FALSE(snapshots_->load(account("A-2")).has_value());
}

TEST_P(SnapshotStoreConformance, ALowerVersionNeverReplacesAHigherOne) {
  snapshots_->save(account("A-1"), 9, "nine");
  EXPECT_EQ(snapshots_->save(account("A-1"), 4, "four"), SnapshotSaveOutcome::kKeptNewer);
  EXPECT_EQ(snapshots_->load(account("A-1"))->payload, "nine");
  EXPECT_EQ(snapshots_->load(account("A-1"))->version, 9);
}

TEST_P(SnapshotStoreConformance, TheSameVersionReplacesIt) {
  snapshots_->save(account("A-1"), 9, "old encoding");
  EXPECT_EQ(snapshots_->save(account("A-1"), 9, "new encoding"), SnapshotSaveOutcome::kSaved);
  EXPECT_EQ(snapshots_->load(account("A-1"))->payload, "new encoding");
}

TEST_P(SnapshotStoreConformance, RefusesANegativeVersion) {
  EXPECT_THROW(snapshots_->save(account("A-1"), -1, "x"), InvalidInputError);
  EXPECT_FALSE(snapshots_->load(account("A-1")).has_value());
}

INSTANTIATE_TEST_SUITE_P(Providers, SnapshotStoreConformance,
                         ::testing::ValuesIn(snapshot_providers()), provider_name);

}  // namespace
}  // namespace docket::conformance::eventsourcing
