// Appends inside memory units of work are optimistic: checked when staged against
// what the unit sees, and again at commit under the database's lock. Of units that
// staged at one version exactly one commits; the others fail at commit with
// ConcurrencyConflictError and write nothing, which the dispatcher turns
// into a redelivery (dispatch) or a rerun of the batch (dispatch_batch). Positions are
// assigned at commit, in commit order.
#include <gtest/gtest.h>

#include <atomic>
#include <latch>
#include <string>
#include <thread>
#include <vector>

#include "docket/core/error.h"
#include "docket/core/tenant.h"
#include "docket/eventsourcing/eventsourcing_schema.h"
#include "docket/inbox/inbox_dispatcher.h"
#include "docket/inbox/inbox_errors.h"
#include "docket/memory/database.h"
#include "docket/memory/event_store.h"
#include "docket/memory/store.h"
#include "docket/memory/transaction.h"
#include "memory_test_support.h"

namespace docket::conformance::eventsourcing {
namespace {

Envelope race_deposit(std::string message_id, int amount) {
  return command(std::move(message_id), "deposit", "A-1", amount);
}

class MemoryAppendRace : public MemoryDatabaseFixture {
 protected:
  AppendResult append(UnitOfWork& unit, ExpectedVersion expected, std::string type,
                      const StreamId& stream) {
    return events_->append(tx(unit), stream, expected, {NewEvent{.type = std::move(type)}});
  }
  std::vector<std::string> types(const StreamId& stream) {
    std::vector<std::string> out;
    for (const RecordedEvent& e : events_->load(stream)) {
      out.push_back(e.type);
    }
    return out;
  }

  std::unique_ptr<EventStore> events_ = memory::open_event_store(db_);
  StreamId account_{tenant_, "account", "A-1"};
};

TEST_F(MemoryAppendRace, OfTwoUnitsAtOneVersionTheSecondCommitFailsAndWritesNothing) {
  auto first = inbox_->begin();
  auto second = inbox_->begin();
  ASSERT_TRUE(
      append(*first, ExpectedVersion::no_stream(), "opened-by-first", account_).succeeded());
  const AppendResult staged =
      append(*second, ExpectedVersion::no_stream(), "opened-by-second", account_);
  ASSERT_TRUE(staged.succeeded()) << "neither sees the other's staged append";
  EXPECT_EQ(staged.success().events.at(0).version, 0);
  EXPECT_EQ(staged.success().events.at(0).global_position, 0) << "assigned only at commit";
  tx(*second).insert("orders", {"o-1"});

  first->commit();
  expect_commit_conflict(*second, -1, 0, "is at version 0");
  EXPECT_EQ(types(account_), (std::vector<std::string>{"opened-by-first"}));
  EXPECT_EQ(events_->read_all(0, 10).events.size(), 1u);
  auto reader = inbox_->begin();
  EXPECT_EQ(tx(*reader).count("orders"), 0u) << "nothing of the losing unit was written";
}

TEST_F(MemoryAppendRace, ExactlyOneOfManyConcurrentUnitsCommits) {
  ASSERT_TRUE(
      events_->append(account_, ExpectedVersion::no_stream(), {{.type = "opened"}}).succeeded());
  constexpr int kUnits = 8;
  std::latch all_staged(kUnits);
  std::atomic<int> committed = 0;
  std::atomic<int> lost = 0;
  std::vector<std::thread> threads;
  for (int i = 0; i < kUnits; ++i) {
    threads.emplace_back([&, i] {
      auto unit = inbox_->begin();
      const bool staged =
          append(*unit, ExpectedVersion::exactly(0), "deposit-" + std::to_string(i), account_)
              .succeeded();
      all_staged.arrive_and_wait();  // every unit staged before any commits
      if (!staged) {
        return;
      }
      try {
        unit->commit();
        ++committed;
      } catch (const ConcurrencyConflictError&) {
        ++lost;
      }
    });
  }
  for (std::thread& thread : threads) {
    thread.join();
  }
  EXPECT_EQ(committed, 1);
  EXPECT_EQ(lost, kUnits - 1);
  const std::vector<RecordedEvent> stream = events_->load(account_);
  ASSERT_EQ(stream.size(), 2u);
  EXPECT_EQ(stream[1].version, 1);
  EXPECT_EQ(stream[1].global_position, 2);
}

TEST_F(MemoryAppendRace, PositionsAreAssignedInCommitOrderAndNothingIsInFlight) {
  const StreamId other(tenant_, "account", "B-2");
  auto early = inbox_->begin();
  auto late = inbox_->begin();
  ASSERT_TRUE(append(*early, ExpectedVersion::any(), "staged-first", account_).succeeded());
  ASSERT_TRUE(append(*late, ExpectedVersion::any(), "staged-second", other).succeeded());
  EXPECT_TRUE(events_->read_all(0, 10).events.empty()) << "staged events are not visible";

  late->commit();
  early->commit();
  const ReadAllPage page = events_->read_all(0, 10);
  ASSERT_EQ(page.events.size(), 2u);
  EXPECT_EQ(page.events[0].type, "staged-second");
  EXPECT_EQ(page.events[0].global_position, 1);
  EXPECT_EQ(page.events[1].type, "staged-first");
  EXPECT_EQ(page.events[1].global_position, 2);
}

// A handler that appends at the version it loaded (or at any version: in a batch, a
// load does not see the earlier messages' staged appends); on its first run, another
// message's delivery appends to the same stream and commits (on another thread).
class MemoryDispatchRace : public MemoryAppendRace {
 protected:
  InboxDispatcher dispatcher(bool at_loaded_version = true) {
    HandlerRegistry handlers;
    handlers.on<Command>(
        "deposit",
        [this, at_loaded_version](const Command& d, memory::Transaction& tx, HandlerContext&) {
          ++executions_;
          const auto version = static_cast<std::int64_t>(events_->load(account_).size()) - 1;
          events_
              ->append(
                  tx, account_,
                  at_loaded_version ? ExpectedVersion::from_value(version) : ExpectedVersion::any(),
                  {NewEvent{.type = "deposited", .payload = std::to_string(d.amount)}})
              .value_or_throw();
          if (!raced_.exchange(true)) {
            std::thread racer([&] {
              const TenantScope scope(tenant_);
              racer_outcome_ = racer_inbox_->dispatch(race_deposit("racer", 7));
            });
            racer.join();
          }
        });
    return InboxDispatcher(*inbox_, InboxOptions("ledger"), std::move(handlers));
  }
  std::vector<std::string> payloads() {
    std::vector<std::string> out;
    for (const RecordedEvent& e : events_->load(account_)) {
      out.push_back(e.payload);
    }
    return out;
  }

  std::atomic<int> executions_ = 0;
  std::atomic<bool> raced_ = false;
  std::optional<InboxDispatcher> racer_inbox_;
  std::optional<DispatchOutcome> racer_outcome_;
};

TEST_F(MemoryDispatchRace, DispatchRethrowsTheLostRaceAndTheRedeliveryAppends) {
  const InboxDispatcher inbox = dispatcher();
  racer_inbox_.emplace(dispatcher());
  EXPECT_THROW(inbox.dispatch(race_deposit("m-1", 50)), ConcurrencyConflictError);
  EXPECT_EQ(racer_outcome_, DispatchOutcome::kProcessed);
  EXPECT_FALSE(inbox_->is_recorded(DedupKey{tenant_.value(), "ledger", "m-1"}));
  EXPECT_EQ(payloads(), (std::vector<std::string>{"7"}));

  EXPECT_EQ(inbox.dispatch(race_deposit("m-1", 50)), DispatchOutcome::kProcessed);  // redelivered
  EXPECT_EQ(payloads(), (std::vector<std::string>{"7", "50"}));
  EXPECT_EQ(executions_, 3);
}

TEST_F(MemoryDispatchRace, ABatchThatLostTheRaceRunsAgainOnTheNewVersion) {
  const InboxDispatcher inbox = dispatcher(/*at_loaded_version=*/false);
  racer_inbox_.emplace(dispatcher());
  const std::vector<Envelope> batch{race_deposit("m-1", 10), race_deposit("m-2", 20)};
  const auto results = inbox.dispatch_batch(batch);
  EXPECT_EQ(racer_outcome_, DispatchOutcome::kProcessed);
  ASSERT_EQ(results.size(), 2u);
  EXPECT_TRUE(results[0].ok());
  EXPECT_TRUE(results[1].ok());
  EXPECT_EQ(payloads(), (std::vector<std::string>{"7", "10", "20"}));
  EXPECT_EQ(executions_, 5) << "the batch's two messages ran twice, the racer once";
}

}  // namespace
}  // namespace docket::conformance::eventsourcing
