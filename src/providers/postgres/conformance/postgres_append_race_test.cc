// The append's lost race on PostgreSQL, made to happen for certain: an append of three
// events expecting version 0 runs while a unit of work holds an uncommitted append of
// version 1. The three-event append's first insert waits for the unit (a backend
// blocked by the unit's transaction proves it), and when the unit commits it finds
// version 1 taken: it comes back as a VersionConflict at the winner's version and
// writes nothing, none of versions 2 and 3 either (which were free), so an append is
// never partial although it runs without a subtransaction. Two creators of one new
// stream race the same way over its version 0.
#include <gtest/gtest.h>

#include <chrono>
#include <exception>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "docket/postgres/event_store.h"
#include "docket/postgres/store.h"
#include "docket/postgres/transaction.h"
#include "providers/postgres/conformance/postgres_lock_wait.h"
#include "providers/postgres/tests/postgres_schema.h"

namespace docket::conformance::eventsourcing::postgres_append_race_test {
namespace {

std::vector<std::string> types(EventStore& events, const StreamId& stream) {
  std::vector<std::string> out;
  for (const RecordedEvent& event : events.load(stream)) {
    out.push_back(event.type);
  }
  return out;
}

// The three events the racer appends, expecting version 0.
const std::vector<NewEvent> kRacersEvents{NewEvent{.type = "a"}, NewEvent{.type = "b"},
                                          NewEvent{.type = "c"}};

// Runs `race` on another thread while `unit` holds uncommitted writes through `tx`;
// commits `unit` once that thread waits on it, and returns what `race` answered.
AppendResult race_a_unit(UnitOfWork& unit, postgres::Transaction& tx,
                         const std::function<AppendResult()>& race) {
  std::optional<AppendResult> outside;
  std::string failure;
  std::thread thread([&] {
    try {
      outside = race();
    } catch (const std::exception& e) {
      failure = e.what();
    }
  });
  const bool waited = postgres::conformance::another_session_waits_on(tx, std::chrono::seconds(30));
  unit.commit();
  thread.join();
  EXPECT_TRUE(waited) << "the racing append never waited on the unit's uncommitted version";
  if (!outside) {
    throw std::logic_error("the racing append threw instead of answering: " + failure);
  }
  return *outside;
}

// The race above: `race` appends kRacersEvents expecting version 0 while a unit of
// work of `inbox` holds an uncommitted append of version 1 (through `events`); the
// unit commits once the racer waits on it. Returns the racer's result.
AppendResult lose_a_race(InboxStore& inbox, EventStore& events, const StreamId& stream,
                         const std::function<AppendResult()>& race) {
  EXPECT_TRUE(events.append(stream, ExpectedVersion::no_stream(), {NewEvent{.type = "opened"}})
                  .succeeded());
  auto unit = inbox.begin();
  auto& tx = dynamic_cast<postgres::Transaction&>(unit->handler_transaction());
  EXPECT_TRUE(events.append(tx, stream, ExpectedVersion::exactly(0), {NewEvent{.type = "inside"}})
                  .succeeded());
  return race_a_unit(*unit, tx, race);
}

TEST(PostgresAppendRace, ALongerAppendThatLosesItsFirstVersionWritesNothing) {
  test_support::PostgresSchema schema;
  auto inbox = postgres::open_store(schema.url());
  inbox->migrate();
  auto events = postgres::open_event_store({.conninfo = schema.url()});
  const StreamId stream(TenantId("acme"), "account", "race-1");

  const AppendResult outside = lose_a_race(*inbox, *events, stream, [&] {
    return events->append(stream, ExpectedVersion::exactly(0), kRacersEvents);
  });
  ASSERT_FALSE(outside.succeeded());
  EXPECT_EQ(outside.conflict().expected_version, 0);
  EXPECT_EQ(outside.conflict().actual_version, 1);
  EXPECT_EQ(types(*events, stream), (std::vector<std::string>{"opened", "inside"}));
  const ReadAllPage page = events->read_all(0, 100);
  ASSERT_EQ(page.events.size(), 2u);
  EXPECT_EQ(page.events[1].type, "inside");

  // The stream goes on from the winner's version.
  const AppendResult next = events->append(stream, ExpectedVersion::exactly(1),
                                           {NewEvent{.type = "a"}, NewEvent{.type = "b"}});
  ASSERT_TRUE(next.succeeded());
  EXPECT_EQ(next.success().new_version, 3);
}

// A new stream's append (expected no stream) does not read the stream: of two creators,
// the one whose version 0 waits on the other's uncommitted one gets the stream key's
// violation when it commits, a conflict at version 0, and none of its events is written.
TEST(PostgresAppendRace, TwoCreatorsOfOneStreamMakeOneConflictWritingNothing) {
  test_support::PostgresSchema schema;
  auto inbox = postgres::open_store(schema.url());
  inbox->migrate();
  auto events = postgres::open_event_store({.conninfo = schema.url()});
  const StreamId stream(TenantId("acme"), "account", "race-new");

  auto unit = inbox->begin();
  auto& tx = dynamic_cast<postgres::Transaction&>(unit->handler_transaction());
  ASSERT_TRUE(events->append(tx, stream, ExpectedVersion::no_stream(), {NewEvent{.type = "inside"}})
                  .succeeded());
  const AppendResult outside = race_a_unit(*unit, tx, [&] {
    return events->append(stream, ExpectedVersion::no_stream(), kRacersEvents);
  });
  ASSERT_FALSE(outside.succeeded());
  EXPECT_EQ(outside.conflict().expected_version, ExpectedVersion::kNoStreamValue);
  EXPECT_EQ(outside.conflict().actual_version, 0);
  EXPECT_EQ(types(*events, stream), (std::vector<std::string>{"inside"}));
}

// Inside a handler's transaction the append is another statement (its first event
// ON CONFLICT DO NOTHING, the others only after it): losing the race there is the same
// conflict, writes nothing, and leaves the racer's own unit of work usable.
TEST(PostgresAppendRace, AnAppendInsideAUnitThatLosesItsFirstVersionWritesNothing) {
  test_support::PostgresSchema schema;
  auto inbox = postgres::open_store(schema.url());
  inbox->migrate();
  auto events = postgres::open_event_store({.conninfo = schema.url()});
  const StreamId stream(TenantId("acme"), "account", "race-3");
  const StreamId other(TenantId("acme"), "account", "race-3-other");

  auto racers_unit = inbox->begin();
  const AppendResult inside = lose_a_race(*inbox, *events, stream, [&] {
    return events->append(racers_unit->handler_transaction(), stream, ExpectedVersion::exactly(0),
                          kRacersEvents);
  });
  ASSERT_FALSE(inside.succeeded());
  EXPECT_EQ(inside.conflict().expected_version, 0);
  EXPECT_EQ(inside.conflict().actual_version, 1);
  ASSERT_TRUE(events
                  ->append(racers_unit->handler_transaction(), other, ExpectedVersion::no_stream(),
                           {NewEvent{.type = "after the loss"}})
                  .succeeded());
  racers_unit->commit();
  EXPECT_EQ(types(*events, stream), (std::vector<std::string>{"opened", "inside"}));
  EXPECT_EQ(types(*events, other), (std::vector<std::string>{"after the loss"}));
}

// With SERIALIZABLE as the connection's default, ON CONFLICT reports the winner its
// snapshot cannot see as a serialization failure; an append on its own still answers
// with the VersionConflict, not an exception.
TEST(PostgresAppendRace, UnderASerializableDefaultTheLostRaceIsStillAConflict) {
  test_support::PostgresSchema schema;
  auto inbox = postgres::open_store(schema.url());
  inbox->migrate();
  auto events = postgres::open_event_store({.conninfo = schema.url()});
  auto serializable = postgres::open_event_store(
      {.conninfo = schema.url() + "%20-cdefault_transaction_isolation%3Dserializable"});
  const StreamId stream(TenantId("acme"), "account", "race-2");

  const AppendResult outside = lose_a_race(*inbox, *events, stream, [&] {
    return serializable->append(stream, ExpectedVersion::exactly(0), kRacersEvents);
  });
  ASSERT_FALSE(outside.succeeded());
  EXPECT_EQ(outside.conflict().actual_version, 1);
  EXPECT_EQ(types(*events, stream), (std::vector<std::string>{"opened", "inside"}));
}

}  // namespace
}  // namespace docket::conformance::eventsourcing::postgres_append_race_test
