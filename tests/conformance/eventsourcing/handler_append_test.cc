// An inbox handler appends events inside its unit of work (EventStore::append with
// the handler's transaction) on one database holding the inbox and the events: the
// events commit with the dedup row, vanish with it when the dispatch fails, and a
// redelivery appends nothing. Other pairings are refused. Runs for every provider
// whose event store can join its own inbox's transaction (EventJoinDatabases).
#include <gtest/gtest.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "docket/core/error.h"
#include "docket/core/tenant.h"
#include "docket/eventsourcing/typed_aggregate.h"
#include "docket/inbox/handler_registry.h"
#include "docket/inbox/inbox_dispatcher.h"
#include "docket/inbox/inbox_errors.h"
#include "join_databases.h"

namespace docket::conformance::eventsourcing {
namespace {

struct Deposit {
  std::string account;
  int amount = 0;
};
void to_json(nlohmann::json& j, const Deposit& d) {
  j = nlohmann::json{{"account", d.account}, {"amount", d.amount}};
}
void from_json(const nlohmann::json& j, Deposit& d) {
  j.at("account").get_to(d.account);
  j.at("amount").get_to(d.amount);
}

constexpr std::string_view kDepositType = "deposit";

// The account as a typed aggregate (typed_aggregate.h), decided in the handler's unit.
struct Credited {
  static constexpr std::string_view kMessageType = "credited";
  int amount = 0;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Credited, amount)
struct Balance {
  int amount = 0;
  void evolve(const Credited& e) { amount += e.amount; }
};

Envelope deposit(std::string message_id, int amount) {
  Envelope envelope;
  envelope.message_id = std::move(message_id);
  envelope.event_type = std::string(kDepositType);
  envelope.payload = nlohmann::json(Deposit{"A-1", amount}).dump();
  envelope.occurred_at = Timestamp(std::chrono::seconds(1'700'000'000));
  return envelope;
}

template <typename Database>
class HandlerAppend : public ::testing::Test {
 protected:
  using Tx = typename Database::Transaction;

  HandlerAppend() {
    inbox_ = db_.open_inbox(clock_);
    events_ = db_.open_events(clock_);
  }

  StreamId account(std::string_view id = "A-1") const { return StreamId(tenant_, "account", id); }

  // A dispatcher whose deposit handler appends one "deposited" event (then one
  // "fee-charged" when the amount is over 100) at the version the stream is at, and
  // then throws when `fail` is set: its events were written by then.
  InboxDispatcher dispatcher(const bool& fail) {
    HandlerRegistry handlers;
    handlers.on<Deposit>(
        kDepositType, [this, &fail](const Deposit& d, Tx& tx, HandlerContext& ctx) {
          ++executions_;
          const StreamId stream(ctx.tenant(), "account", d.account);
          const std::int64_t version =
              static_cast<std::int64_t>(this->events_->load(stream).size()) - 1;
          std::vector<NewEvent> decided{{.type = "deposited", .payload = std::to_string(d.amount)}};
          if (d.amount > 100) {
            decided.push_back({.type = "fee-charged", .payload = "1"});
          }
          const AppendResult appended =
              this->events_->append(tx, stream, ExpectedVersion::from_value(version), decided);
          appended.value_or_throw();
          if (fail) {
            throw std::runtime_error("downstream refused");
          }
        });
    return InboxDispatcher(*inbox_, InboxOptions("ledger"), std::move(handlers));
  }

  // Whether the store reads every stream in one order (read_all), besides each stream.
  bool has_global_feed() const {
    return events_->capabilities().feed == FeedKind::kGlobalPositions;
  }

  bool recorded(std::string_view message_id) {
    return inbox_->is_recorded(DedupKey{tenant_.value(), "ledger", std::string(message_id)});
  }

  std::vector<std::string> types(const StreamId& stream) {
    std::vector<std::string> out;
    for (const RecordedEvent& e : this->events_->load(stream)) {
      out.push_back(e.type + ":" + e.payload);
    }
    return out;
  }

  Database db_;
  ManualClock clock_{Timestamp(std::chrono::seconds(1'800'000'000))};
  std::unique_ptr<InboxStore> inbox_;
  std::unique_ptr<EventStore> events_;
  TenantId tenant_{"acme"};
  TenantScope scope_{tenant_};
  int executions_ = 0;
};

TYPED_TEST_SUITE(HandlerAppend, EventJoinDatabases, JoinCaseNames);

TYPED_TEST(HandlerAppend, EventsCommitWithTheDedupRow) {
  const bool fail = false;
  const auto inbox = this->dispatcher(fail);
  EXPECT_EQ(inbox.dispatch(deposit("m-1", 50)), DispatchOutcome::kProcessed);
  EXPECT_EQ(inbox.dispatch(deposit("m-2", 500)), DispatchOutcome::kProcessed);
  EXPECT_TRUE(this->recorded("m-1"));
  EXPECT_TRUE(this->recorded("m-2"));
  EXPECT_EQ(this->types(this->account()),
            (std::vector<std::string>{"deposited:50", "deposited:500", "fee-charged:1"}));
  if (!this->has_global_feed()) {
    return;  // the stream's load above is the whole store's view of it
  }
  const ReadAllPage all = this->events_->read_all(0, 10);
  ASSERT_EQ(all.events.size(), 3u);
  EXPECT_LT(all.events[0].global_position, all.events[1].global_position);
  EXPECT_LT(all.events[1].global_position, all.events[2].global_position);
}

TYPED_TEST(HandlerAppend, AHandlerThrowLeavesNeitherDedupRowNorEvents) {
  bool fail = true;
  const auto inbox = this->dispatcher(fail);
  EXPECT_THROW(inbox.dispatch(deposit("m-1", 500)), std::runtime_error);
  EXPECT_EQ(this->executions_, 1) << "the handler ran and appended before it threw";
  EXPECT_FALSE(this->recorded("m-1"));
  EXPECT_TRUE(this->events_->load(this->account()).empty());
  if (this->has_global_feed()) {
    EXPECT_TRUE(this->events_->read_all(0, 10).events.empty());
  }

  fail = false;  // the transport redelivers
  EXPECT_EQ(inbox.dispatch(deposit("m-1", 500)), DispatchOutcome::kProcessed);
  EXPECT_TRUE(this->recorded("m-1"));
  EXPECT_EQ(this->types(this->account()),
            (std::vector<std::string>{"deposited:500", "fee-charged:1"}));
}

TYPED_TEST(HandlerAppend, ARedeliveryIsSkippedAndAppendsNothing) {
  const bool fail = false;
  const auto inbox = this->dispatcher(fail);
  EXPECT_EQ(inbox.dispatch(deposit("m-1", 50)), DispatchOutcome::kProcessed);
  EXPECT_EQ(inbox.dispatch(deposit("m-1", 50)), DispatchOutcome::kSkippedDuplicate);
  EXPECT_EQ(this->executions_, 1);
  EXPECT_EQ(this->types(this->account()), (std::vector<std::string>{"deposited:50"}));
}

TYPED_TEST(HandlerAppend, AFailedMessageOfABatchTakesOnlyItsOwnEvents) {
  HandlerRegistry handlers;
  handlers.on<Deposit>(
      kDepositType, [this](const Deposit& d, typename TestFixture::Tx& tx, HandlerContext& ctx) {
        this->events_
            ->append(tx, StreamId(ctx.tenant(), "account", "A-1"), ExpectedVersion::any(),
                     {NewEvent{.type = "deposited", .payload = std::to_string(d.amount)}})
            .value_or_throw();
        if (d.amount < 0) {
          throw std::runtime_error("negative deposit");
        }
      });
  const InboxDispatcher inbox(*this->inbox_, InboxOptions("ledger"), std::move(handlers));
  const std::vector<Envelope> batch{deposit("m-1", 10), deposit("m-2", -5), deposit("m-3", 30)};
  const auto results = inbox.dispatch_batch(batch);
  ASSERT_EQ(results.size(), 3u);
  EXPECT_TRUE(results[0].ok());
  EXPECT_FALSE(results[1].ok());
  EXPECT_TRUE(results[2].ok());
  EXPECT_FALSE(this->recorded("m-2"));
  EXPECT_EQ(this->types(this->account()),
            (std::vector<std::string>{"deposited:10", "deposited:30"}))
      << "versions stay gap-free: the rolled-back message's version is reused";
}

TYPED_TEST(HandlerAppend, AConflictInTheHandlerIsAValueAndWritesNothing) {
  HandlerRegistry handlers;
  std::optional<VersionConflict> seen;
  handlers.on<Deposit>(kDepositType, [&](const Deposit&, typename TestFixture::Tx& tx,
                                         HandlerContext& ctx) {
    const StreamId stream(ctx.tenant(), "account", "A-1");
    this->events_->append(tx, stream, ExpectedVersion::no_stream(), {NewEvent{.type = "opened"}})
        .value_or_throw();
    const AppendResult stale =
        this->events_->append(tx, stream, ExpectedVersion::no_stream(),
                              {NewEvent{.type = "opened-again"}, NewEvent{.type = "deposited"}});
    if (stale.is_conflict()) {
      seen = stale.conflict();
    }
  });
  const InboxDispatcher inbox(*this->inbox_, InboxOptions("ledger"), std::move(handlers));
  EXPECT_EQ(inbox.dispatch(deposit("m-1", 1)), DispatchOutcome::kProcessed);
  ASSERT_TRUE(seen.has_value());
  EXPECT_EQ(seen->expected_version, kNoStreamVersion);
  EXPECT_EQ(seen->actual_version, 0) << "the check sees the unit of work's own append";
  EXPECT_EQ(this->types(this->account()), (std::vector<std::string>{"opened:"}));
}

// Of a unit's append and another append expecting the same version, exactly one lands
// and the loser learns it. Where the unit's transaction holds the stream (interactive
// transactions: PostgreSQL's row lock, SQLite's write lock) the other append waits for
// the commit and comes back a conflict; where the unit buffers its writes until one
// atomic commit (memory, DynamoDB, Firestore) the other lands at once and the commit
// fails (ConcurrencyConflictError, which dispatch_batch answers by running the unit
// again), nothing of the unit written.
TYPED_TEST(HandlerAppend, OfAUnitsAppendAndAnotherExpectingItsVersionExactlyOneLands) {
  this->events_->append(this->account(), ExpectedVersion::no_stream(), {{.type = "opened"}})
      .value_or_throw();
  auto unit = this->inbox_->begin();
  HandlerTransaction& tx = unit->handler_transaction();
  this->events_->append(tx, this->account(), ExpectedVersion::exactly(0), {{.type = "inside"}})
      .value_or_throw();
  std::optional<AppendResult> other;
  const auto append_outside = [&] {
    other =
        this->events_->append(this->account(), ExpectedVersion::exactly(0), {{.type = "outside"}});
  };
  bool unit_landed = false;
  const auto commit = [&] {
    try {
      unit->commit();
      unit_landed = true;
    } catch (const ConcurrencyConflictError& e) {
      EXPECT_EQ(e.expected_version(), 0) << e.what();
      EXPECT_NE(std::string(e.what()).find("nothing of this unit of work was written"),
                std::string::npos)
          << e.what();
    }
  };
  if (this->events_->capabilities().interactive_transactions) {
    std::thread outside(append_outside);
    commit();
    outside.join();
  } else {
    append_outside();  // nothing of the unit is on the server yet: this one lands
    commit();
    EXPECT_FALSE(unit_landed) << "the commit carried an append to a stream that moved meanwhile";
  }
  ASSERT_TRUE(other.has_value());
  EXPECT_NE(unit_landed, other->succeeded()) << "exactly one of the two appends lands";
  EXPECT_EQ(this->types(this->account()),
            (std::vector<std::string>{"opened:", unit_landed ? "inside:" : "outside:"}));
}

// A batch whose handler appends to a stream that another writer appends to before the
// batch commits. Where the unit buffers its writes, the other append lands at once, the
// commit fails on the moved stream, and dispatch_batch runs the unit again, which
// appends after it. Where the handler has an interactive transaction, the other append
// runs beside the unit: a store that holds the stream (SQLite, PostgreSQL) makes it wait
// for the commit, one that checks the stream at commit (memory) may let it land first,
// and then the unit runs again as above. Either way every message is processed once,
// and no event is lost.
TYPED_TEST(HandlerAppend, ABatchWhoseStreamMovesBeforeItsCommitEndsWithEveryEventOnce) {
  this->events_->append(this->account(), ExpectedVersion::no_stream(), {{.type = "opened"}})
      .value_or_throw();
  const bool interactive = this->events_->capabilities().interactive_transactions;
  std::optional<AppendResult> outside_result;
  const auto append_outside = [&] {
    const TenantScope scope(this->tenant_);
    outside_result =
        this->events_->append(this->account(), ExpectedVersion::any(), {{.type = "outside"}});
  };
  std::thread outside;
  HandlerRegistry handlers;
  handlers.on<Deposit>(
      kDepositType, [&](const Deposit& d, typename TypeParam::Transaction& tx, HandlerContext&) {
        ++this->executions_;
        // At any version: a load in a batch does not see the earlier messages' appends.
        this->events_
            ->append(tx, this->account(), ExpectedVersion::any(),
                     {{.type = "deposited", .payload = std::to_string(d.amount)}})
            .value_or_throw();
        if (outside.joinable() || outside_result.has_value()) {
          return;
        }
        outside = std::thread(append_outside);
        if (!interactive) {
          outside.join();  // it lands at once: nothing of the unit is on the server yet
        }
      });
  const InboxDispatcher inbox(*this->inbox_, InboxOptions("ledger"), std::move(handlers));
  const auto results =
      inbox.dispatch_batch(std::vector<Envelope>{deposit("m-1", 10), deposit("m-2", 20)});
  if (outside.joinable()) {
    outside.join();  // it waited for the batch's commit
  }
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0].outcome, DispatchOutcome::kProcessed);
  EXPECT_EQ(results[1].outcome, DispatchOutcome::kProcessed);
  ASSERT_TRUE(outside_result.has_value());
  std::vector<std::string> expected{"opened:", "deposited:10", "deposited:20"};
  const bool ran_again = this->executions_ == 4;
  if (!interactive) {
    EXPECT_TRUE(ran_again) << "the unit ran again after the stream moved";
  }
  if (ran_again) {  // the other append landed before the commit
    EXPECT_TRUE(outside_result->succeeded());
    expected.insert(expected.begin() + 1, "outside:");
  } else {
    EXPECT_EQ(this->executions_, 2) << "the batch committed first, each message run once";
    if (outside_result->succeeded()) {
      expected.push_back("outside:");
    }
  }
  EXPECT_EQ(this->types(this->account()), expected);
}

TYPED_TEST(HandlerAppend, AnotherProvidersTransactionIsRefused) {
  using Foreign = typename TypeParam::Foreign;
  auto foreign_inbox = this->db_.foreign.open_inbox(this->clock_);
  auto unit = foreign_inbox->begin();
  expect_configuration_error(
      [&] {
        this->events_->append(unit->handler_transaction(), this->account(), ExpectedVersion::any(),
                              {NewEvent{.type = "opened"}});
      },
      {std::string(TypeParam::kProvider) + " event store",
       std::string(Foreign::Transaction::kTypeName),
       std::string(TypeParam::Transaction::kTypeName)});

  auto foreign_events = this->db_.foreign.open_events(this->clock_);
  auto provider_unit = this->inbox_->begin();
  expect_configuration_error(
      [&] {
        foreign_events->append(provider_unit->handler_transaction(), this->account(),
                               ExpectedVersion::any(), {NewEvent{.type = "opened"}});
      },
      {std::string(Foreign::kProvider) + " event store",
       std::string(TypeParam::Transaction::kTypeName)});
}

TYPED_TEST(HandlerAppend, ATransactionOnAnotherDatabaseIsRefusedAndNothingIsWritten) {
  auto other_inbox = this->db_.open_other_inbox(this->clock_);
  {
    auto unit = other_inbox->begin();
    expect_configuration_error(
        [&] {
          this->events_->append(unit->handler_transaction(), this->account(),
                                ExpectedVersion::any(), {NewEvent{.type = "opened"}});
        },
        this->db_.other_database_mentions());
  }
  EXPECT_TRUE(this->events_->load(this->account()).empty());
}

// A typed aggregate decides inside the handler's unit of work: its events commit with
// the dedup row, vanish with it when the handler throws, and a redelivery decides
// nothing again.
TYPED_TEST(HandlerAppend, ATypedAggregateDecidesInTheHandlersUnit) {
  const TypedAggregateRepository<Balance, Credited> balances(*this->events_, "account");
  bool fail = true;
  HandlerRegistry handlers;
  handlers.on<Deposit>(kDepositType, [&](const Deposit& d, HandlerContext& ctx) {
    ++this->executions_;
    const auto r = balances.execute(ctx.transaction(), ctx.tenant(), d.account,
                                    [&](const Balance&) { return Credited{d.amount}; });
    if (r.conflict) {
      r.conflict->raise();  // the message comes again, to a fresh load
    }
    if (fail) {
      throw std::runtime_error("downstream refused");
    }
  });
  const InboxDispatcher inbox(*this->inbox_, InboxOptions("ledger"), std::move(handlers));
  EXPECT_THROW(inbox.dispatch(deposit("m-1", 70)), std::runtime_error);
  EXPECT_TRUE(this->events_->load(this->account()).empty());
  fail = false;
  EXPECT_EQ(inbox.dispatch(deposit("m-1", 70)), DispatchOutcome::kProcessed);
  EXPECT_EQ(inbox.dispatch(deposit("m-1", 70)), DispatchOutcome::kSkippedDuplicate);
  EXPECT_EQ(inbox.dispatch(deposit("m-2", 5)), DispatchOutcome::kProcessed);
  EXPECT_EQ(this->executions_, 3);
  EXPECT_EQ(this->types(this->account()),
            (std::vector<std::string>{R"(credited:{"amount":70})", R"(credited:{"amount":5})"}));
  EXPECT_EQ(balances.load(this->tenant_, "A-1").state.amount, 75);
}

}  // namespace
}  // namespace docket::conformance::eventsourcing
