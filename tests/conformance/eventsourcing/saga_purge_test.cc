// Purging completed sagas: only those completed before the cutoff, per tenant or for
// every tenant, in bounded batches, oldest completion first.
#include "docket/core/error.h"
#include "suite.h"

namespace docket::conformance::eventsourcing {
namespace {

class SagaPurge : public StoreConformance {
 protected:
  // Creates saga `id` of `tenant_name` and completes it at the clock's current time.
  void complete(std::string_view id, std::string_view tenant_name = "acme") {
    sagas_->save(checkout(id, tenant_name), kNewSaga, "s").value_or_throw();
    sagas_->save(checkout(id, tenant_name), 0, "done", SagaStatus::kCompleted).value_or_throw();
  }
  bool exists(std::string_view id, std::string_view tenant_name = "acme") {
    return sagas_->load(checkout(id, tenant_name)).has_value();
  }
};

TEST_P(SagaPurge, DeletesOnlySagasCompletedBeforeTheCutoff) {
  sagas_->save(checkout("active"), kNewSaga, "running").value_or_throw();
  complete("old");
  clock_.advance(std::chrono::seconds(10));
  complete("older-than-cutoff");
  clock_.advance(std::chrono::seconds(10));
  const Timestamp cutoff = clock_.now();
  complete("at-cutoff");
  clock_.advance(std::chrono::seconds(1));
  complete("after-cutoff");
  clock_.advance(std::chrono::hours(1));

  EXPECT_EQ(sagas_->purge_completed(cutoff), 2u);
  EXPECT_FALSE(exists("old"));
  EXPECT_FALSE(exists("older-than-cutoff"));
  EXPECT_TRUE(exists("active"));
  EXPECT_TRUE(exists("at-cutoff"));
  EXPECT_TRUE(exists("after-cutoff"));
  EXPECT_EQ(sagas_->purge_completed(cutoff), 0u);
}

TEST_P(SagaPurge, PurgesOneTenantOrEveryTenant) {
  for (const char* id : {"O-1", "O-2", "O-3"}) {
    complete(id, "acme");
  }
  for (const char* id : {"O-1", "O-2"}) {
    complete(id, "globex");
  }
  clock_.advance(std::chrono::seconds(1));
  EXPECT_EQ(sagas_->purge_completed(clock_.now(), 1000, tenant("acme")), 3u);
  EXPECT_FALSE(exists("O-1", "acme"));
  EXPECT_TRUE(exists("O-1", "globex"));
  EXPECT_TRUE(exists("O-2", "globex"));
  complete("O-9", "acme");
  clock_.advance(std::chrono::seconds(1));
  EXPECT_EQ(sagas_->purge_completed(clock_.now()), 3u);
  EXPECT_FALSE(exists("O-1", "globex"));
  EXPECT_FALSE(exists("O-9", "acme"));
}

TEST_P(SagaPurge, ABatchDeletesAtMostItsSizeOldestFirst) {
  for (int i = 0; i < 5; ++i) {
    complete("O-" + std::to_string(i));
    clock_.advance(std::chrono::seconds(1));
  }
  const Timestamp cutoff = clock_.now();
  EXPECT_EQ(sagas_->purge_completed_batch(cutoff, 2), 2u);
  EXPECT_FALSE(exists("O-0"));
  EXPECT_FALSE(exists("O-1"));
  EXPECT_TRUE(exists("O-2"));
  EXPECT_EQ(sagas_->purge_completed_batch(cutoff, 2), 2u);
  EXPECT_EQ(sagas_->purge_completed_batch(cutoff, 2), 1u);
  EXPECT_EQ(sagas_->purge_completed_batch(cutoff, 2), 0u);

  for (int i = 0; i < 5; ++i) {
    complete("P-" + std::to_string(i));
  }
  clock_.advance(std::chrono::seconds(1));
  EXPECT_EQ(sagas_->purge_completed(clock_.now(), 2), 5u);  // batches of 2, 2, 1
}

TEST_P(SagaPurge, RefusesABatchSizeOutOfRange) {
  complete("O-1");
  clock_.advance(std::chrono::seconds(1));
  EXPECT_THROW(sagas_->purge_completed(clock_.now(), 0), InvalidInputError);
  EXPECT_THROW(sagas_->purge_completed_batch(clock_.now(), kMaxPurgeBatch + 1), InvalidInputError);
  EXPECT_TRUE(exists("O-1"));
}

INSTANTIATE_TEST_SUITE_P(Providers, SagaPurge, ::testing::ValuesIn(saga_providers()),
                         provider_name);

}  // namespace
}  // namespace docket::conformance::eventsourcing
