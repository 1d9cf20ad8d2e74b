// An inbox handler loads and saves a saga inside its unit of work (SagaStore::load/save
// with the handler's transaction) on one database holding the inbox and the sagas: the
// saga commits with the dedup row, vanishes with it when the dispatch fails, a
// conflict is a result value, and the transaction sees its own earlier saves. Other
// pairings are refused. Runs for every provider in JoinDatabases.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "docket/core/error.h"
#include "docket/core/tenant.h"
#include "docket/inbox/handler_registry.h"
#include "docket/inbox/inbox_dispatcher.h"
#include "docket/sagas/saga_errors.h"
#include "join_databases.h"

namespace docket::conformance::eventsourcing {
namespace {

// A message whose handler runs `Body` against the saga store with its transaction.
struct Touch {
  std::string order;
};
void to_json(nlohmann::json& j, const Touch& t) {
  j = nlohmann::json{{"order", t.order}};
}
void from_json(const nlohmann::json& j, Touch& t) {
  j.at("order").get_to(t.order);
}

Envelope touch(std::string message_id, std::string order = "O-1") {
  Envelope envelope;
  envelope.message_id = std::move(message_id);
  envelope.event_type = "touch";
  envelope.payload = nlohmann::json(Touch{std::move(order)}).dump();
  envelope.occurred_at = Timestamp(std::chrono::seconds(1'700'000'000));
  return envelope;
}

template <typename Database>
class HandlerSaga : public ::testing::Test {
 protected:
  using Body = std::function<void(SagaStore&, HandlerTransaction&, const SagaId&)>;

  HandlerSaga() : inbox_(db_.open_inbox(clock_)), sagas_(db_.open_sagas(clock_)) {}

  SagaId checkout(std::string_view id = "O-1") const { return SagaId(tenant_, "checkout", id); }

  // A dispatcher whose handler runs `body` for the saga the message names.
  InboxDispatcher dispatcher(Body body) {
    HandlerRegistry handlers;
    handlers.on<Touch>(
        "touch", [this, body = std::move(body)](const Touch& t, HandlerContext& ctx) {
          body(*sagas_, ctx.transaction(), SagaId(ctx.tenant(), "checkout", t.order));
        });
    return InboxDispatcher(*inbox_, InboxOptions("checkout"), std::move(handlers));
  }

  // Saves `state` over whatever version the transaction sees (creating the saga).
  static void advance(SagaStore& sagas, HandlerTransaction& tx, const SagaId& saga,
                      const std::string& state) {
    const auto loaded = sagas.load(tx, saga);
    sagas.save(tx, saga, loaded ? loaded->version : kNewSaga, state).value_or_throw();
  }

  bool recorded(std::string_view message_id) {
    return inbox_->is_recorded(DedupKey{tenant_.value(), "checkout", std::string(message_id)});
  }

  Database db_;
  ManualClock clock_{Timestamp(std::chrono::seconds(1'800'000'000))};
  std::unique_ptr<InboxStore> inbox_;
  std::unique_ptr<SagaStore> sagas_;
  TenantId tenant_{"acme"};
  TenantScope scope_{tenant_};
};

TYPED_TEST_SUITE(HandlerSaga, JoinDatabases, JoinCaseNames);

TYPED_TEST(HandlerSaga, TheSagaCommitsWithTheDedupRow) {
  const auto inbox =
      this->dispatcher([](SagaStore& sagas, HandlerTransaction& tx, const SagaId& saga) {
        const auto loaded = sagas.load(tx, saga);
        const std::string state = loaded ? loaded->state + "+" : "started";
        EXPECT_EQ(sagas.save(tx, saga, loaded ? loaded->version : kNewSaga, state)
                      .value_or_throw()
                      .new_version,
                  loaded ? loaded->version + 1 : 0);
      });
  EXPECT_EQ(inbox.dispatch(touch("m-1")), DispatchOutcome::kProcessed);
  EXPECT_EQ(inbox.dispatch(touch("m-2")), DispatchOutcome::kProcessed);
  EXPECT_EQ(inbox.dispatch(touch("m-2")), DispatchOutcome::kSkippedDuplicate);
  EXPECT_TRUE(this->recorded("m-1"));
  EXPECT_TRUE(this->recorded("m-2"));
  const auto saga = this->sagas_->load(this->checkout());
  ASSERT_TRUE(saga.has_value());
  EXPECT_EQ(saga->version, 1) << "the duplicate saved nothing";
  EXPECT_EQ(saga->state, "started+");
  EXPECT_EQ(saga->started_at, this->clock_.now());
}

TYPED_TEST(HandlerSaga, AHandlerThrowAfterTheSaveLeavesNeitherSagaChangeNorDedupRow) {
  this->sagas_->save(this->checkout(), kNewSaga, "v0").value_or_throw();
  const auto inbox =
      this->dispatcher([](SagaStore& sagas, HandlerTransaction& tx, const SagaId& saga) {
        TestFixture::advance(sagas, tx, saga, "changed");
        throw std::runtime_error("downstream refused");
      });
  EXPECT_THROW(inbox.dispatch(touch("m-1")), std::runtime_error);
  EXPECT_THROW(inbox.dispatch(touch("m-2", "O-2")), std::runtime_error);
  EXPECT_FALSE(this->recorded("m-1"));
  EXPECT_FALSE(this->recorded("m-2"));
  const auto saga = this->sagas_->load(this->checkout());
  EXPECT_EQ(saga->version, 0);
  EXPECT_EQ(saga->state, "v0");
  EXPECT_FALSE(this->sagas_->load(this->checkout("O-2")).has_value()) << "no saga was created";
}

TYPED_TEST(HandlerSaga, AConflictInTheTransactionIsAValueAndWritesNothing) {
  std::vector<VersionConflict> conflicts;
  const auto inbox =
      this->dispatcher([&](SagaStore& sagas, HandlerTransaction& tx, const SagaId& saga) {
        sagas.save(tx, saga, kNewSaga, "first").value_or_throw();
        for (const std::int64_t stale : {kNewSaga, std::int64_t{3}}) {
          const SagaSaveResult result = sagas.save(tx, saga, stale, "stale");
          ASSERT_TRUE(result.is_conflict());
          conflicts.push_back(result.conflict());
        }
      });
  EXPECT_EQ(inbox.dispatch(touch("m-1")), DispatchOutcome::kProcessed);
  ASSERT_EQ(conflicts.size(), 2u);
  EXPECT_EQ(conflicts[0].expected_version, kNewSaga);
  EXPECT_EQ(conflicts[0].actual_version, 0) << "the check sees the unit of work's own save";
  EXPECT_EQ(conflicts[1].expected_version, 3);
  EXPECT_EQ(conflicts[1].actual_version, 0);
  const auto saga = this->sagas_->load(this->checkout());
  EXPECT_EQ(saga->version, 0);
  EXPECT_EQ(saga->state, "first");
}

TYPED_TEST(HandlerSaga, LoadInTheTransactionSeesItsOwnEarlierSaves) {
  std::optional<SagaRecord> inside;
  std::optional<SagaRecord> outside;
  bool completed_refused = false;
  const auto inbox =
      this->dispatcher([&](SagaStore& sagas, HandlerTransaction& tx, const SagaId& saga) {
        sagas.save(tx, saga, kNewSaga, "a").value_or_throw();
        sagas.save(tx, saga, 0, "b", SagaStatus::kCompleted).value_or_throw();
        inside = sagas.load(tx, saga);
        outside = sagas.load(saga);  // the store's own connection: nothing committed yet
        try {
          sagas.save(tx, saga, 1, "c");
        } catch (const InvalidInputError&) {
          completed_refused = true;
        }
      });
  EXPECT_EQ(inbox.dispatch(touch("m-1")), DispatchOutcome::kProcessed);
  ASSERT_TRUE(inside.has_value());
  EXPECT_EQ(inside->version, 1);
  EXPECT_EQ(inside->state, "b");
  EXPECT_EQ(inside->status, SagaStatus::kCompleted);
  EXPECT_EQ(inside->completed_at, this->clock_.now());
  EXPECT_FALSE(outside.has_value());
  EXPECT_TRUE(completed_refused) << "a completed saga is final inside the transaction too";
  EXPECT_EQ(*this->sagas_->load(this->checkout()), *inside);
}

TYPED_TEST(HandlerSaga, ABatchSeesEarlierMessagesAndAFailedMessageLosesOnlyItsSave) {
  const auto inbox =
      this->dispatcher([](SagaStore& sagas, HandlerTransaction& tx, const SagaId& saga) {
        const auto loaded = sagas.load(tx, saga);
        const std::string state = (loaded ? loaded->state : std::string()) + saga.saga_id();
        sagas.save(tx, saga, loaded ? loaded->version : kNewSaga, state).value_or_throw();
        if (state.size() > 6) {
          throw std::runtime_error("third step refused");
        }
      });
  const std::vector<Envelope> batch{touch("m-1", "O-1"), touch("m-2", "O-1"), touch("m-3", "O-1"),
                                    touch("m-4", "O-2")};
  const auto results = inbox.dispatch_batch(batch);
  ASSERT_EQ(results.size(), 4u);
  EXPECT_TRUE(results[0].ok());
  EXPECT_TRUE(results[1].ok());
  EXPECT_FALSE(results[2].ok());
  EXPECT_TRUE(results[3].ok());
  EXPECT_FALSE(this->recorded("m-3"));
  const auto saga = this->sagas_->load(this->checkout());
  EXPECT_EQ(saga->version, 1);
  EXPECT_EQ(saga->state, "O-1O-1") << "m-2 loaded m-1's save in the same transaction";
  EXPECT_EQ(this->sagas_->load(this->checkout("O-2"))->state, "O-2");
}

// Of a unit's save and another save expecting the same version, exactly one lands and
// the loser learns it. Where the unit's transaction holds the saga (interactive
// transactions: PostgreSQL's row lock, SQLite's write lock) the other save waits for
// the commit and comes back a conflict, or, on the memory provider, may land first and
// fail the commit; where the unit buffers its writes until one atomic commit
// (DynamoDB, Firestore) the other lands at once and the commit fails with
// SagaConflictError, nothing of the unit written.
TYPED_TEST(HandlerSaga, OfAUnitsSaveAndAnotherExpectingItsVersionExactlyOneLands) {
  this->sagas_->save(this->checkout(), kNewSaga, "v0").value_or_throw();
  auto unit = this->inbox_->begin();
  HandlerTransaction& tx = unit->handler_transaction();
  ASSERT_EQ(this->sagas_->load(tx, this->checkout())->version, 0);
  this->sagas_->save(tx, this->checkout(), 0, "inside").value_or_throw();
  std::optional<SagaSaveResult> other;
  const auto save_outside = [&] { other = this->sagas_->save(this->checkout(), 0, "outside"); };
  bool unit_landed = false;
  const auto commit = [&] {
    try {
      unit->commit();
      unit_landed = true;
    } catch (const SagaConflictError& e) {
      EXPECT_EQ(e.saga(), this->checkout());
      EXPECT_EQ(e.expected_version(), 0);
      EXPECT_EQ(e.actual_version(), 1);
    }
  };
  if (this->sagas_->capabilities().interactive_transactions) {
    std::thread outside(save_outside);
    commit();
    outside.join();
  } else {
    save_outside();  // nothing of the unit is on the server yet: this one lands
    commit();
    EXPECT_FALSE(unit_landed) << "the commit carried a save of a saga that moved meanwhile";
  }
  ASSERT_TRUE(other.has_value());
  EXPECT_NE(unit_landed, other->succeeded()) << "exactly one of the two saves lands";
  const auto saga = this->sagas_->load(this->checkout());
  EXPECT_EQ(saga->version, 1);
  EXPECT_EQ(saga->state, unit_landed ? "inside" : "outside");
}

TYPED_TEST(HandlerSaga, AnotherProvidersTransactionIsRefused) {
  using Foreign = typename TypeParam::Foreign;
  auto foreign_inbox = this->db_.foreign.open_inbox(this->clock_);
  auto unit = foreign_inbox->begin();
  const std::vector<std::string> mentions{std::string(TypeParam::kProvider) + " saga store",
                                          std::string(Foreign::Transaction::kTypeName),
                                          std::string(TypeParam::Transaction::kTypeName)};
  HandlerTransaction& tx = unit->handler_transaction();
  expect_configuration_error([&] { this->sagas_->load(tx, this->checkout()); }, mentions);
  expect_configuration_error([&] { this->sagas_->save(tx, this->checkout(), kNewSaga, "s"); },
                             mentions);

  auto foreign_sagas = this->db_.foreign.open_sagas(this->clock_);
  auto provider_unit = this->inbox_->begin();
  expect_configuration_error(
      [&] {
        foreign_sagas->save(provider_unit->handler_transaction(), this->checkout(), kNewSaga, "s");
      },
      {std::string(Foreign::kProvider) + " saga store",
       std::string(TypeParam::Transaction::kTypeName)});
}

TYPED_TEST(HandlerSaga, ATransactionOnAnotherDatabaseIsRefusedAndNothingIsWritten) {
  auto other_inbox = this->db_.open_other_inbox(this->clock_);
  {
    auto unit = other_inbox->begin();
    HandlerTransaction& tx = unit->handler_transaction();
    const auto mentions = this->db_.other_database_mentions();
    expect_configuration_error([&] { this->sagas_->load(tx, this->checkout()); }, mentions);
    expect_configuration_error([&] { this->sagas_->save(tx, this->checkout(), kNewSaga, "s"); },
                               mentions);
    unit->commit();
  }
  EXPECT_FALSE(this->sagas_->load(this->checkout()).has_value());
}

}  // namespace
}  // namespace docket::conformance::eventsourcing
