// Sagas inside memory units of work: load sees the unit's own staged saves, a conflict
// is a result value, a handler throw rolls the save back with the dedup row, a
// message of a batch loses only its own saves, and of two units saving one version the
// second fails at commit (SagaConflictError) and writes nothing.
#include <gtest/gtest.h>

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "docket/core/tenant.h"
#include "docket/eventsourcing/eventsourcing_schema.h"
#include "docket/inbox/inbox_dispatcher.h"
#include "docket/inbox/inbox_errors.h"
#include "docket/memory/database.h"
#include "docket/memory/saga_store.h"
#include "docket/memory/store.h"
#include "docket/memory/transaction.h"
#include "docket/sagas/saga_errors.h"
#include "memory_test_support.h"

namespace docket::conformance::eventsourcing {
namespace {

Envelope step(std::string message_id, std::string_view order, bool fail = false) {
  return command(std::move(message_id), "step", order, 0, fail);
}

class MemorySagaUnit : public MemoryDatabaseFixture {
 protected:
  SagaId checkout(std::string_view id) const { return SagaId(tenant_, "checkout", id); }

  // A dispatcher whose handler advances the order's saga by one step (its state counts
  // the steps) and then throws when the message says so.
  InboxDispatcher dispatcher() {
    HandlerRegistry handlers;
    handlers.on<Command>(
        "step", [this](const Command& s, memory::Transaction& tx, HandlerContext&) {
          const SagaId saga = checkout(s.subject);
          const auto loaded = sagas_->load(tx, saga);
          const int steps = loaded ? std::stoi(loaded->state) : 0;
          sagas_->save(tx, saga, loaded ? loaded->version : kNewSaga, std::to_string(steps + 1))
              .value_or_throw();
          if (s.fail) {
            throw std::runtime_error("payment declined");
          }
        });
    return InboxDispatcher(*inbox_, InboxOptions("checkout"), std::move(handlers));
  }

  std::unique_ptr<SagaStore> sagas_ = memory::open_saga_store(db_);
};

TEST_F(MemorySagaUnit, LoadSeesTheUnitsOwnStagedSaves) {
  auto unit = inbox_->begin();
  ASSERT_EQ(sagas_->save(tx(*unit), checkout("o-1"), kNewSaga, "started").success().new_version, 0);
  const auto staged = sagas_->load(tx(*unit), checkout("o-1"));
  ASSERT_TRUE(staged.has_value());
  EXPECT_EQ(staged->state, "started");
  EXPECT_EQ(staged->version, 0);
  EXPECT_FALSE(sagas_->load(checkout("o-1")).has_value()) << "not committed yet";

  clock_.advance(std::chrono::seconds(5));
  ASSERT_EQ(sagas_->save(tx(*unit), checkout("o-1"), 0, "paid", SagaStatus::kCompleted)
                .success()
                .new_version,
            1);
  unit->commit();

  const auto committed = sagas_->load(checkout("o-1"));
  ASSERT_TRUE(committed.has_value());
  EXPECT_EQ(committed->version, 1);
  EXPECT_EQ(committed->state, "paid");
  EXPECT_EQ(committed->status, SagaStatus::kCompleted);
  EXPECT_EQ(committed->started_at, Timestamp(std::chrono::seconds(1'800'000'000)));
  EXPECT_EQ(committed->completed_at, clock_.now());
}

TEST_F(MemorySagaUnit, AConflictIsAResultValueAndTheUnitGoesOn) {
  ASSERT_TRUE(sagas_->save(checkout("o-1"), kNewSaga, "committed").succeeded());
  auto unit = inbox_->begin();
  const SagaSaveResult stale = sagas_->save(tx(*unit), checkout("o-1"), kNewSaga, "again");
  ASSERT_TRUE(stale.is_conflict());
  EXPECT_EQ(stale.conflict().expected_version, kNewSaga);
  EXPECT_EQ(stale.conflict().actual_version, 0);

  ASSERT_TRUE(sagas_->save(tx(*unit), checkout("o-1"), 0, "advanced").succeeded());
  const SagaSaveResult behind_own = sagas_->save(tx(*unit), checkout("o-1"), 0, "again");
  ASSERT_TRUE(behind_own.is_conflict());
  EXPECT_EQ(behind_own.conflict().actual_version, 1) << "the check sees the unit's own save";
  unit->commit();
  EXPECT_EQ(sagas_->load(checkout("o-1"))->state, "advanced");
}

TEST_F(MemorySagaUnit, SavingACompletedSagaThrowsAtOnce) {
  ASSERT_TRUE(sagas_->save(checkout("o-1"), kNewSaga, "done", SagaStatus::kCompleted).succeeded());
  auto unit = inbox_->begin();
  EXPECT_THROW(sagas_->save(tx(*unit), checkout("o-1"), 0, "more"), InvalidInputError);
}

TEST_F(MemorySagaUnit, AHandlerThrowRollsTheSaveBackWithTheDedupRow) {
  const InboxDispatcher inbox = dispatcher();
  EXPECT_THROW(inbox.dispatch(step("m-1", "o-1", /*fail=*/true)), std::runtime_error);
  EXPECT_FALSE(sagas_->load(checkout("o-1")).has_value());
  EXPECT_FALSE(inbox_->is_recorded(DedupKey{tenant_.value(), "checkout", "m-1"}));

  EXPECT_EQ(inbox.dispatch(step("m-1", "o-1")), DispatchOutcome::kProcessed);
  EXPECT_EQ(inbox.dispatch(step("m-1", "o-1")), DispatchOutcome::kSkippedDuplicate);
  EXPECT_EQ(sagas_->load(checkout("o-1"))->state, "1");
}

TEST_F(MemorySagaUnit, AFailedMessageOfABatchLosesOnlyItsOwnSave) {
  const InboxDispatcher inbox = dispatcher();
  const std::vector<Envelope> batch{step("m-1", "o-1"), step("m-2", "o-1", /*fail=*/true),
                                    step("m-3", "o-1")};
  const auto results = inbox.dispatch_batch(batch);
  ASSERT_EQ(results.size(), 3u);
  EXPECT_TRUE(results[0].ok());
  EXPECT_FALSE(results[1].ok());
  EXPECT_TRUE(results[2].ok());
  const auto saga = sagas_->load(checkout("o-1"));
  ASSERT_TRUE(saga.has_value());
  EXPECT_EQ(saga->state, "2");
  EXPECT_EQ(saga->version, 1) << "the rolled-back step's version is reused";
}

TEST_F(MemorySagaUnit, OfTwoUnitsSavingOneVersionTheSecondCommitFails) {
  ASSERT_TRUE(sagas_->save(checkout("o-1"), kNewSaga, "started").succeeded());
  auto first = inbox_->begin();
  auto second = inbox_->begin();
  ASSERT_TRUE(sagas_->save(tx(*first), checkout("o-1"), 0, "by-first").succeeded());
  ASSERT_TRUE(sagas_->save(tx(*second), checkout("o-1"), 0, "by-second").succeeded());
  ASSERT_TRUE(sagas_->save(tx(*second), checkout("o-2"), kNewSaga, "by-second").succeeded());
  first->commit();
  try {
    second->commit();
    ADD_FAILURE() << "the commit must fail";
  } catch (const SagaConflictError& e) {
    EXPECT_EQ(e.saga(), checkout("o-1"));
    EXPECT_EQ(e.expected_version(), 0);
    EXPECT_EQ(e.actual_version(), 1);
    EXPECT_NE(std::string(e.what()).find("expecting version 0"), std::string::npos) << e.what();
  }
  EXPECT_EQ(sagas_->load(checkout("o-1"))->state, "by-first");
  EXPECT_FALSE(sagas_->load(checkout("o-2")).has_value()) << "nothing of the loser was written";
}

TEST_F(MemorySagaUnit, ATransactionOfAnotherDatabaseIsRefused) {
  const memory::Database other = memory::open_database(clock_);
  auto other_inbox = memory::open_store(other);
  auto other_unit = other_inbox->begin();
  for (const auto& call : std::vector<std::function<void()>>{
           [&] { sagas_->load(tx(*other_unit), checkout("o-1")); },
           [&] { sagas_->save(tx(*other_unit), checkout("o-1"), kNewSaga, "x"); }}) {
    try {
      call();
      ADD_FAILURE() << "expected ConfigurationError";
    } catch (const ConfigurationError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("memory saga store"), std::string::npos) << what;
      EXPECT_NE(what.find("memory database " + std::to_string(other.id())), std::string::npos);
      EXPECT_NE(what.find("memory database " + std::to_string(db_.id())), std::string::npos);
    }
  }
  EXPECT_FALSE(sagas_->load(checkout("o-1")).has_value());
}

}  // namespace
}  // namespace docket::conformance::eventsourcing
