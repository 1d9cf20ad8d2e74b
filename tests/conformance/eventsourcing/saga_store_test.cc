// The saga store: versioned saves where a stale or concurrent save loses with a
// conflict, completion retained and final.
#include <barrier>
#include <thread>

#include "docket/core/error.h"
#include "suite.h"

namespace docket::conformance::eventsourcing {
namespace {

using SagaStoreConformance = StoreConformance;

TEST_P(SagaStoreConformance, CreatesLoadsAndUpdates) {
  EXPECT_FALSE(sagas_->load(checkout("O-1")).has_value());
  EXPECT_EQ(sagas_->save(checkout("O-1"), kNewSaga, "started").value_or_throw().new_version, 0);
  EXPECT_EQ(*sagas_->load(checkout("O-1")), (SagaRecord{.version = 0,
                                                        .state = "started",
                                                        .status = SagaStatus::kActive,
                                                        .started_at = start_,
                                                        .updated_at = start_,
                                                        .completed_at = std::nullopt}));
  clock_.advance(std::chrono::seconds(3));
  const std::string binary("paid\0\x80", 6);
  EXPECT_EQ(sagas_->save(checkout("O-1"), 0, binary).value_or_throw().new_version, 1);
  const auto loaded = sagas_->load(checkout("O-1"));
  EXPECT_EQ(loaded->version, 1);
  EXPECT_EQ(loaded->state, binary);
  EXPECT_EQ(loaded->started_at, start_);
  EXPECT_EQ(loaded->updated_at, start_ + std::chrono::seconds(3));
}

TEST_P(SagaStoreConformance, AStaleSaveConflictsAndWritesNothing) {
  sagas_->save(checkout("O-1"), kNewSaga, "v0").value_or_throw();
  sagas_->save(checkout("O-1"), 0, "v1").value_or_throw();

  const SagaSaveResult stale = sagas_->save(checkout("O-1"), 0, "stale");
  ASSERT_TRUE(stale.is_conflict());
  EXPECT_EQ(stale.conflict().expected_version, 0);
  EXPECT_EQ(stale.conflict().actual_version, 1);
  EXPECT_NE(stale.conflict().message().find("O-1"), std::string::npos);

  const SagaSaveResult recreate = sagas_->save(checkout("O-1"), kNewSaga, "again");
  ASSERT_TRUE(recreate.is_conflict());
  EXPECT_EQ(recreate.conflict().actual_version, 1);
  EXPECT_EQ(sagas_->load(checkout("O-1"))->state, "v1");

  const SagaSaveResult phantom = sagas_->save(checkout("O-2"), 0, "phantom");
  ASSERT_TRUE(phantom.is_conflict());
  EXPECT_EQ(phantom.conflict().actual_version, kNoStreamVersion);
  EXPECT_FALSE(sagas_->load(checkout("O-2")).has_value());
}

TEST_P(SagaStoreConformance, OfTwoConcurrentSavesExactlyOneWins) {
  sagas_->save(checkout("O-1"), kNewSaga, "start").value_or_throw();
  for (int round = 0; round < 20; ++round) {
    std::barrier both_loaded(2);
    SagaSaveResult results[2] = {VersionConflict{}, VersionConflict{}};
    std::int64_t loaded_versions[2] = {-5, -5};
    std::vector<std::thread> threads;
    for (int t = 0; t < 2; ++t) {
      threads.emplace_back([&, t] {
        const auto saga = sagas_->load(checkout("O-1"));
        loaded_versions[t] = saga->version;
        both_loaded.arrive_and_wait();
        results[t] = sagas_->save(checkout("O-1"), saga->version, "by " + std::to_string(t));
      });
    }
    for (auto& thread : threads) {
      thread.join();
    }
    ASSERT_EQ(loaded_versions[0], round);
    ASSERT_EQ(loaded_versions[1], round);
    ASSERT_NE(results[0].succeeded(), results[1].succeeded()) << "round " << round;
    const int winner = results[0].succeeded() ? 0 : 1;
    EXPECT_EQ(results[winner].success().new_version, round + 1);
    EXPECT_EQ(results[1 - winner].conflict().expected_version, round);
    EXPECT_EQ(results[1 - winner].conflict().actual_version, round + 1);
    EXPECT_EQ(sagas_->load(checkout("O-1"))->state, "by " + std::to_string(winner));
  }
}

TEST_P(SagaStoreConformance, ACompletedSagaIsRetainedAndFinal) {
  sagas_->save(checkout("O-1"), kNewSaga, "started").value_or_throw();
  clock_.advance(std::chrono::minutes(1));
  sagas_->save(checkout("O-1"), 0, "done", SagaStatus::kCompleted).value_or_throw();
  clock_.advance(std::chrono::hours(24 * 30));

  const auto kept = sagas_->load(checkout("O-1"));
  ASSERT_TRUE(kept.has_value());
  EXPECT_EQ(kept->status, SagaStatus::kCompleted);
  EXPECT_EQ(kept->completed_at, start_ + std::chrono::minutes(1));
  EXPECT_EQ(kept->state, "done");
  EXPECT_THROW(sagas_->save(checkout("O-1"), 1, "reopened"), InvalidInputError);
  EXPECT_TRUE(sagas_->save(checkout("O-1"), 0, "stale").is_conflict());
  EXPECT_EQ(*sagas_->load(checkout("O-1")), *kept);

  sagas_->save(checkout("O-2"), kNewSaga, "instant", SagaStatus::kCompleted).value_or_throw();
  EXPECT_EQ(sagas_->load(checkout("O-2"))->completed_at, clock_.now());
}

TEST_P(SagaStoreConformance, RefusesBadInput) {
  EXPECT_THROW(sagas_->save(checkout("O-1"), -2, "x"), InvalidInputError);
  EXPECT_FALSE(sagas_->load(checkout("O-1")).has_value());
  EXPECT_THROW(SagaId(tenant("acme"), "", "O-1"), InvalidInputError);
  EXPECT_THROW(SagaId(tenant("acme"), "checkout", ""), InvalidInputError);
  EXPECT_THROW(SagaId(tenant("acme"), "checkout", "\xc0\xaf"), InvalidInputError);
  EXPECT_THROW(SagaId(tenant("acme"), "checkout", std::string(kMaxSagaIdBytes + 1, 's')),
               InvalidInputError);
}

INSTANTIATE_TEST_SUITE_P(Providers, SagaStoreConformance, ::testing::ValuesIn(saga_providers()),
                         provider_name);

}  // namespace
}  // namespace docket::conformance::eventsourcing
