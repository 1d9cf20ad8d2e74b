// One memory database shared by an inbox, an outbox and the event store: a handler's
// events and follow-up messages commit with its dedup row or not at all, as on one
// SQLite file. Stores opened without a database have one each and never join.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "docket/core/tenant.h"
#include "docket/inbox/inbox_dispatcher.h"
#include "docket/memory/database.h"
#include "docket/memory/event_store.h"
#include "docket/memory/store.h"
#include "docket/memory/transaction.h"
#include "docket/outbox/outbox.h"
#include "memory_test_support.h"

namespace docket::conformance::eventsourcing {
namespace {

Envelope order(std::string message_id, std::string_view id, bool fail = false) {
  return command(std::move(message_id), "order", id, 0, fail);
}

class MemoryDatabaseTest : public MemoryDatabaseFixture {
 protected:
  // A handler that appends "accepted" to the order's stream, stages "OrderAccepted"
  // in the outbox and inserts a row of its own, then throws when the order says so.
  InboxDispatcher dispatcher() {
    HandlerRegistry handlers;
    handlers.on<Command>("order", [this](const Command& o, memory::Transaction& tx,
                                         HandlerContext&) {
      events_->append(tx, stream(o.subject), ExpectedVersion::no_stream(), {{.type = "accepted"}})
          .value_or_throw();
      outbox_.stage(tx, {.event_type = "OrderAccepted", .payload = o.subject});
      tx.insert("orders", {o.subject});
      if (o.fail) {
        throw std::runtime_error("warehouse closed");
      }
    });
    return InboxDispatcher(*inbox_, InboxOptions("sales"), std::move(handlers));
  }
  StreamId stream(std::string_view id) const { return StreamId(tenant_, "order", id); }
  std::size_t orders() {
    auto unit = inbox_->begin();
    return tx(*unit).count("orders");
  }

  std::unique_ptr<OutboxStore> outbox_store_ = memory::open_outbox_store(db_);
  std::unique_ptr<EventStore> events_ = memory::open_event_store(db_);
  Outbox outbox_{*outbox_store_, clock_};
};

TEST_F(MemoryDatabaseTest, EventsMessagesAndRowsCommitWithTheDedupRowOrNotAtAll) {
  const InboxDispatcher inbox = dispatcher();
  EXPECT_THROW(inbox.dispatch(order("m-1", "o-1", /*fail=*/true)), std::runtime_error);
  EXPECT_TRUE(events_->load(stream("o-1")).empty());
  EXPECT_TRUE(outbox_store_->read_feed(0, 10).empty());
  EXPECT_EQ(orders(), 0u);

  EXPECT_EQ(inbox.dispatch(order("m-1", "o-1")), DispatchOutcome::kProcessed);
  EXPECT_EQ(events_->load(stream("o-1")).size(), 1u);
  const auto messages = outbox_store_->read_feed(0, 10);
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_EQ(messages[0].event_type, "OrderAccepted");
  EXPECT_EQ(messages[0].causation_id, "m-1");
  EXPECT_EQ(orders(), 1u);
}

TEST_F(MemoryDatabaseTest, HandlesShareOneDatabaseAndKeepItAlive) {
  const memory::Database copy = db_;
  EXPECT_EQ(copy, db_);
  EXPECT_EQ(copy.id(), db_.id());
  const memory::Database other = memory::open_database(clock_);
  EXPECT_FALSE(other == db_);
  EXPECT_NE(other.id(), db_.id());

  std::unique_ptr<EventStore> events;
  {
    const memory::Database scoped = memory::open_database(clock_);
    events = memory::open_event_store(scoped);
  }
  ASSERT_TRUE(events->append(stream("o-1"), ExpectedVersion::any(), {{.type = "x"}}).succeeded());
  EXPECT_EQ(events->load(stream("o-1")).size(), 1u) << "the store keeps its database";
}

TEST_F(MemoryDatabaseTest, AnOutboxOfAnotherDatabaseRefusesTheTransaction) {
  auto own_outbox = memory::open_outbox_store(clock_);  // a database of its own
  auto unit = inbox_->begin();
  try {
    Outbox(*own_outbox, clock_).stage(unit->handler_transaction(), {.event_type = "Ping"});
    FAIL() << "expected ConfigurationError";
  } catch (const ConfigurationError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("memory database " + std::to_string(db_.id())), std::string::npos) << what;
    EXPECT_NE(what.find("docket::memory::Database"), std::string::npos) << what;
  }
}

TEST_F(MemoryDatabaseTest, StoresOpenedWithoutADatabaseHaveOneEach) {
  auto inbox = memory::open_store(clock_);
  auto events = memory::open_event_store(clock_);
  auto unit = inbox->begin();
  EXPECT_THROW(events->append(unit->handler_transaction(), stream("o-1"), ExpectedVersion::any(),
                              {{.type = "x"}}),
               ConfigurationError);
}

}  // namespace
}  // namespace docket::conformance::eventsourcing
