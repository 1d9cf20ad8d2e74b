// Two tenants using the same aggregate id and saga id: independent streams, versions,
// snapshots and sagas. The second tenant is never told it conflicts with a record it
// never wrote, and no call naming one tenant reaches the other's records.
#include "suite.h"

namespace docket::conformance::eventsourcing {
namespace {

using TenantIsolation = StoreConformance;

TEST_P(TenantIsolation, SameAggregateIdHasIndependentStreamsAndVersions) {
  append_ok(account("A-1", "acme"), ExpectedVersion::no_stream(),
            {event("opened"), event("deposited"), event("deposited")});
  // The second tenant creates "its own" A-1 as a new stream: no conflict.
  EXPECT_EQ(append_ok(account("A-1", "globex"), ExpectedVersion::no_stream(), {event("opened")}),
            0);
  EXPECT_EQ(append_ok(account("A-1", "globex"), ExpectedVersion::exactly(0), {event("closed")}), 1);
  EXPECT_EQ(append_ok(account("A-1", "acme"), ExpectedVersion::exactly(2), {event("closed")}), 3);

  const auto acme = events_->load(account("A-1", "acme"));
  const auto globex = events_->load(account("A-1", "globex"));
  ASSERT_EQ(acme.size(), 4u);
  ASSERT_EQ(globex.size(), 2u);
  for (const auto& e : acme) {
    EXPECT_EQ(e.stream.tenant(), tenant("acme"));
  }
  for (const auto& e : globex) {
    EXPECT_EQ(e.stream.tenant(), tenant("globex"));
  }
  EXPECT_EQ(globex[1].type, "closed");
  EXPECT_TRUE(events_->load(account("A-1", "initech")).empty());

  const auto conflict =
      events_->append(account("A-1", "globex"), ExpectedVersion::exactly(3), {event("x")});
  ASSERT_TRUE(conflict.is_conflict());
  EXPECT_EQ(conflict.conflict().actual_version, 1);  // globex's version, not acme's
}

using TenantIsolatedFeed = StoreConformance;

TEST_P(TenantIsolatedFeed, ReadAllForATenantReturnsOnlyItsEvents) {
  append_ok(account("A-1", "acme"), ExpectedVersion::no_stream(), {event("a0")});
  append_ok(account("A-1", "globex"), ExpectedVersion::no_stream(), {event("g0")});
  append_ok(account("A-1", "acme"), ExpectedVersion::exactly(0), {event("a1")});
  const ReadAllPage acme = events_->read_all(0, 100, tenant("acme"));
  ASSERT_EQ(acme.events.size(), 2u);
  EXPECT_EQ(acme.events[0].type, "a0");
  EXPECT_EQ(acme.events[1].type, "a1");
  const ReadAllPage globex = events_->read_all(0, 100, tenant("globex"));
  ASSERT_EQ(globex.events.size(), 1u);
  EXPECT_EQ(globex.events[0].type, "g0");
  EXPECT_TRUE(events_->read_all(0, 100, tenant("initech")).events.empty());
}

using TenantIsolatedSnapshots = StoreConformance;

TEST_P(TenantIsolatedSnapshots, SameAggregateIdHasIndependentSnapshots) {
  snapshots_->save(account("A-1", "acme"), 7, "acme state");
  EXPECT_FALSE(snapshots_->load(account("A-1", "globex")).has_value());
  // A lower version for the other tenant is its own first snapshot, not a regression.
  EXPECT_EQ(snapshots_->save(account("A-1", "globex"), 2, "globex state"),
            SnapshotSaveOutcome::kSaved);
  EXPECT_EQ(snapshots_->load(account("A-1", "acme"))->payload, "acme state");
  EXPECT_EQ(snapshots_->load(account("A-1", "globex"))->version, 2);
}

using TenantIsolatedSagas = StoreConformance;

TEST_P(TenantIsolatedSagas, SameSagaIdHasIndependentStatesAndVersions) {
  sagas_->save(checkout("O-1", "acme"), kNewSaga, "acme 0").value_or_throw();
  sagas_->save(checkout("O-1", "acme"), 0, "acme 1").value_or_throw();
  EXPECT_FALSE(sagas_->load(checkout("O-1", "globex")).has_value());
  // The second tenant creates its own O-1: no conflict with acme's.
  EXPECT_EQ(
      sagas_->save(checkout("O-1", "globex"), kNewSaga, "globex 0").value_or_throw().new_version,
      0);
  sagas_->save(checkout("O-1", "globex"), 0, "globex done", SagaStatus::kCompleted)
      .value_or_throw();
  const auto acme = sagas_->load(checkout("O-1", "acme"));
  const auto globex = sagas_->load(checkout("O-1", "globex"));
  ASSERT_TRUE(acme && globex);
  EXPECT_EQ(acme->state, "acme 1");
  EXPECT_EQ(acme->status, SagaStatus::kActive);
  EXPECT_EQ(globex->state, "globex done");
  EXPECT_EQ(globex->status, SagaStatus::kCompleted);
}

INSTANTIATE_TEST_SUITE_P(Providers, TenantIsolation, ::testing::ValuesIn(event_providers()),
                         provider_name);
INSTANTIATE_TEST_SUITE_P(Providers, TenantIsolatedSnapshots,
                         ::testing::ValuesIn(snapshot_providers()), provider_name);
INSTANTIATE_TEST_SUITE_P(Providers, TenantIsolatedFeed,
                         ::testing::ValuesIn(global_feed_providers()), provider_name);
INSTANTIATE_TEST_SUITE_P(Providers, TenantIsolatedSagas, ::testing::ValuesIn(saga_providers()),
                         provider_name);

}  // namespace
}  // namespace docket::conformance::eventsourcing
