// The aggregate helper on the provider's stores: rebuild, snapshot use and fallback
// (missing, unreadable), snapshots saved after long replays, and conflicts surfaced.
#include "docket/eventsourcing/aggregate.h"

#include <stdexcept>

#include "docket/core/error.h"
#include "suite.h"

namespace docket::conformance::eventsourcing {
namespace {

struct Balance {
  std::int64_t cents = 0;
};

// Payloads are decimal amounts; a snapshot is the balance, and "garbage" throws.
AggregateSpec<Balance> balance_spec(std::size_t snapshot_after_events = 0) {
  return AggregateSpec<Balance>{
      .aggregate_type = "account",
      .apply =
          [](Balance& b, const RecordedEvent& e) {
            b.cents += std::stoll(e.payload) * (e.type == "withdrawn" ? -1 : 1);
          },
      .initial = {},
      .encode_snapshot = [](const Balance& b) { return std::to_string(b.cents); },
      .decode_snapshot = [](std::string_view p) -> std::optional<Balance> {
        if (p == "garbage") {
          throw std::invalid_argument("snapshot payload 'garbage' is not a balance");
        }
        if (p.empty()) {
          return std::nullopt;
        }
        return Balance{std::stoll(std::string(p))};
      },
      .snapshot_after_events = snapshot_after_events};
}

class AggregateHelper : public StoreConformance {
 protected:
  void deposit(std::int64_t cents, std::string_view id = "A-1") {
    AggregateRepository<Balance> repo(*events_, balance_spec());
    const auto r = repo.execute(tenant("acme"), id, [&](const Balance&) {
      return std::vector<NewEvent>{event("deposited", std::to_string(cents))};
    });
    ASSERT_FALSE(r.conflict.has_value());
  }
};

TEST_P(AggregateHelper, RebuildsFromEventsWithoutSnapshots) {
  deposit(100);
  deposit(50);
  AggregateRepository<Balance> repo(*events_, balance_spec());
  const auto loaded = repo.load(tenant("acme"), "A-1");
  EXPECT_EQ(loaded.state.cents, 150);
  EXPECT_EQ(loaded.version, 1);
  EXPECT_EQ(loaded.snapshot, SnapshotUse::kNotConfigured);
  EXPECT_EQ(loaded.events_replayed, 2u);
  const auto fresh = repo.load(tenant("acme"), "new");
  EXPECT_EQ(fresh.version, kNoStreamVersion);
  EXPECT_EQ(fresh.state.cents, 0);
}

TEST_P(AggregateHelper, StartsFromTheSnapshotAndReplaysOnlyLaterEvents) {
  deposit(100);
  deposit(50);
  deposit(7);
  // A snapshot deliberately unlike the events, to prove it was used.
  snapshots_->save(account("A-1"), 1, "1000");
  AggregateRepository<Balance> repo(*events_, balance_spec(), snapshots_.get());
  const auto loaded = repo.load(tenant("acme"), "A-1");
  EXPECT_EQ(loaded.snapshot, SnapshotUse::kUsed);
  EXPECT_EQ(loaded.state.cents, 1007);
  EXPECT_EQ(loaded.version, 2);
  EXPECT_EQ(loaded.events_replayed, 1u);
}

TEST_P(AggregateHelper, AMissingSnapshotFallsBackToAFullRebuild) {
  deposit(100);
  AggregateRepository<Balance> repo(*events_, balance_spec(), snapshots_.get());
  const auto loaded = repo.load(tenant("acme"), "A-1");
  EXPECT_EQ(loaded.snapshot, SnapshotUse::kMissing);
  EXPECT_EQ(loaded.state.cents, 100);
  EXPECT_EQ(loaded.version, 0);
}

TEST_P(AggregateHelper, AnUnreadableSnapshotFallsBackToAFullRebuild) {
  deposit(100);
  deposit(20);
  AggregateRepository<Balance> repo(*events_, balance_spec(), snapshots_.get());
  for (const std::string payload : {"garbage", ""}) {  // the decoder throws / returns nothing
    snapshots_->save(account("A-1"), 1, payload);
    const auto loaded = repo.load(tenant("acme"), "A-1");
    EXPECT_EQ(loaded.snapshot, SnapshotUse::kUnreadable) << payload;
    EXPECT_EQ(loaded.state.cents, 120) << payload;
    EXPECT_EQ(loaded.version, 1) << payload;
    EXPECT_EQ(loaded.events_replayed, 2u) << payload;
    EXPECT_FALSE(loaded.snapshot_problem.empty());
  }
  snapshots_->save(account("A-1"), 1, "garbage");
  EXPECT_NE(repo.load(tenant("acme"), "A-1").snapshot_problem.find("not a balance"),
            std::string::npos);
}

TEST_P(AggregateHelper, ALongReplaySavesASnapshot) {
  for (int i = 1; i <= 4; ++i) {
    deposit(i);
  }
  AggregateRepository<Balance> repo(*events_, balance_spec(3), snapshots_.get());
  EXPECT_EQ(repo.load(tenant("acme"), "A-1").events_replayed, 4u);
  const auto saved = snapshots_->load(account("A-1"));
  ASSERT_TRUE(saved.has_value());
  EXPECT_EQ(saved->version, 3);
  EXPECT_EQ(saved->payload, "10");
  const auto again = repo.load(tenant("acme"), "A-1");
  EXPECT_EQ(again.snapshot, SnapshotUse::kUsed);
  EXPECT_EQ(again.events_replayed, 0u);
  EXPECT_EQ(again.state.cents, 10);
}

TEST_P(AggregateHelper, ExecuteAppendsAtTheLoadedVersionAndReturnsTheNewState) {
  deposit(100);
  AggregateRepository<Balance> repo(*events_, balance_spec());
  const auto r = repo.execute(tenant("acme"), "A-1", [](const Balance& b) {
    EXPECT_EQ(b.cents, 100);
    return std::vector<NewEvent>{event("withdrawn", "30"), event("withdrawn", "20")};
  });
  EXPECT_FALSE(r.conflict.has_value());
  EXPECT_EQ(r.state.cents, 50);
  EXPECT_EQ(r.version, 2);
  ASSERT_EQ(r.appended.size(), 2u);
  EXPECT_EQ(r.appended[1].version, 2);
  EXPECT_EQ(events_->load(account("A-1")).size(), 3u);
}

TEST_P(AggregateHelper, ExecuteSurfacesAConflictAndWritesNothing) {
  deposit(100);
  AggregateRepository<Balance> repo(*events_, balance_spec());
  const auto r = repo.execute(tenant("acme"), "A-1", [&](const Balance&) {
    // Another writer appends between this command's load and its append.
    append_ok(account("A-1"), ExpectedVersion::exactly(0), {event("deposited", "1")});
    return std::vector<NewEvent>{event("withdrawn", "100")};
  });
  ASSERT_TRUE(r.conflict.has_value());
  EXPECT_EQ(r.conflict->expected_version, 0);
  EXPECT_EQ(r.conflict->actual_version, 1);
  EXPECT_TRUE(r.appended.empty());
  EXPECT_EQ(r.state.cents, 100);  // as loaded
  EXPECT_EQ(events_->load(account("A-1")).back().type, "deposited");
}

TEST_P(AggregateHelper, ExecuteWithNothingDecidedWritesNothing) {
  AggregateRepository<Balance> repo(*events_, balance_spec());
  const auto r =
      repo.execute(tenant("acme"), "A-1", [](const Balance&) { return std::vector<NewEvent>{}; });
  EXPECT_FALSE(r.conflict.has_value());
  EXPECT_EQ(r.version, kNoStreamVersion);
  EXPECT_TRUE(events_->load(account("A-1")).empty());
  expect_store_total(0u);
}

TEST_P(AggregateHelper, RefusesAnUnusableSpec) {
  AggregateSpec<Balance> no_apply = balance_spec();
  no_apply.apply = nullptr;
  EXPECT_THROW(AggregateRepository<Balance>(*events_, no_apply), ConfigurationError);
  AggregateSpec<Balance> one_codec = balance_spec();
  one_codec.decode_snapshot = nullptr;
  EXPECT_THROW(AggregateRepository<Balance>(*events_, one_codec), ConfigurationError);
  EXPECT_THROW(AggregateRepository<Balance>(*events_, balance_spec(5)), ConfigurationError);
}

INSTANTIATE_TEST_SUITE_P(Providers, AggregateHelper, ::testing::ValuesIn(aggregate_providers()),
                         provider_name);

}  // namespace
}  // namespace docket::conformance::eventsourcing
