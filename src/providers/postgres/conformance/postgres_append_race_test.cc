// The append's lost race on PostgreSQL, made to happen for certain: an append of three
// events expecting version 0 runs while a unit of work holds an uncommitted append of
// version 1. The three-event append's first insert waits for the unit (a backend
// blocked by the unit's transaction proves it), and when the unit commits it finds
// version 1 taken: it comes back as a VersionConflict at the winner's version and
// writes nothing, none of versions 2 and 3 either (which were free), so an append is
// never partial although it runs without a subtransaction.
#include <gtest/gtest.h>

#include <chrono>
#include <exception>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "docket/postgres/event_store.h"
#include "docket/postgres/store.h"
#include "docket/postgres/transaction.h"
#include "providers/postgres/conformance/lock_wait.h"
#include "support/postgres_schema.h"

namespace docket::conformance::eventsourcing::postgres_append_race_test {
namespace {

std::vector<std::string> types(EventStore& events, const StreamId& stream) {
  std::vector<std::string> out;
  for (const RecordedEvent& event : events.load(stream)) {
    out.push_back(event.type);
  }
  return out;
}

// The race above: `racer` appends three events expecting version 0 while a unit of
// work of `inbox` holds an uncommitted append of version 1 (through `events`); the
// unit commits once the racer waits on it. Returns the racer's result.
AppendResult lose_a_race(InboxStore& inbox, EventStore& events, EventStore& racer,
                         const StreamId& stream) {
  EXPECT_TRUE(events.append(stream, ExpectedVersion::no_stream(), {NewEvent{.type = "opened"}})
                  .succeeded());
  auto unit = inbox.begin();
  auto& tx = dynamic_cast<postgres::Transaction&>(unit->handler_transaction());
  EXPECT_TRUE(events.append(tx, stream, ExpectedVersion::exactly(0), {NewEvent{.type = "inside"}})
                  .succeeded());
  std::optional<AppendResult> outside;
  std::string failure;
  std::thread thread([&] {
    try {
      outside = racer.append(stream, ExpectedVersion::exactly(0),
                             {NewEvent{.type = "a"}, NewEvent{.type = "b"}, NewEvent{.type = "c"}});
    } catch (const std::exception& e) {
      failure = e.what();
    }
  });
  const bool waited = postgres::conformance::another_session_waits_on(tx, std::chrono::seconds(30));
  unit->commit();
  thread.join();
  EXPECT_TRUE(waited) << "the three-event append never waited on the unit's version 1";
  if (!outside) {
    throw std::logic_error("the racing append threw instead of answering: " + failure);
  }
  return *outside;
}

TEST(PostgresAppendRace, ALongerAppendThatLosesItsFirstVersionWritesNothing) {
  test_support::PostgresSchema schema;
  auto inbox = postgres::open_store(schema.url());
  inbox->migrate();
  auto events = postgres::open_event_store({.conninfo = schema.url()});
  const StreamId stream(TenantId("acme"), "account", "race-1");

  const AppendResult outside = lose_a_race(*inbox, *events, *events, stream);
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

  const AppendResult outside = lose_a_race(*inbox, *events, *serializable, stream);
  ASSERT_FALSE(outside.succeeded());
  EXPECT_EQ(outside.conflict().actual_version, 1);
  EXPECT_EQ(types(*events, stream), (std::vector<std::string>{"opened", "inside"}));
}

}  // namespace
}  // namespace docket::conformance::eventsourcing::postgres_append_race_test
