// Unique violations of an append on PostgreSQL that are not another appender's version.
// Only the stream key's violation is a version conflict (a retry with the new version
// can win it); a drawn position that an event already has (rows written with explicit
// positions past the identity sequence, as an import does) or a unique index of the
// user's fails with the server's error and writes nothing, on its own and inside a unit
// of work. Answering those with a conflict would send a caller that retries on
// conflicts round forever.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "docket/core/error.h"
#include "docket/postgres/event_store.h"
#include "docket/postgres/store.h"
#include "docket/postgres/transaction.h"
#include "providers/postgres/conformance/postgres_unit_sql.h"
#include "providers/postgres/tests/postgres_schema.h"

namespace docket::conformance::eventsourcing::postgres_append_failure_test {
namespace {

using ::testing::HasSubstr;

class PostgresAppendFailure : public ::testing::Test {
 protected:
  PostgresAppendFailure()
      : inbox_(postgres::open_store(schema_.url())),
        events_(postgres::open_event_store({.conninfo = schema_.url()})) {
    inbox_->migrate();
    EXPECT_TRUE(events_->append(first_, ExpectedVersion::no_stream(), {NewEvent{.type = "opened"}})
                    .succeeded());
  }

  // The message of what appending to `stream` on its own, then inside a unit of work,
  // threw; both must throw InfrastructureError and write nothing.
  void expect_both_fail_writing_nothing(const StreamId& stream, const std::string& substring) {
    try {
      events_->append(stream, ExpectedVersion::no_stream(), {NewEvent{.type = "a"}});
      ADD_FAILURE() << "the append on its own did not throw";
    } catch (const InfrastructureError& e) {
      EXPECT_THAT(e.what(), HasSubstr(substring));
    }
    auto unit = inbox_->begin();
    try {
      events_->append(unit->handler_transaction(), stream, ExpectedVersion::no_stream(),
                      {NewEvent{.type = "a"}});
      ADD_FAILURE() << "the append inside a unit of work did not throw";
    } catch (const InfrastructureError& e) {
      EXPECT_THAT(e.what(), HasSubstr(substring));
    }
    unit.reset();
    EXPECT_TRUE(events_->load(stream).empty());
  }

  test_support::PostgresSchema schema_;
  std::unique_ptr<InboxStore> inbox_;
  std::unique_ptr<EventStore> events_;
  const StreamId first_{TenantId("acme"), "account", "a-1"};
};

TEST_F(PostgresAppendFailure, APositionAnImportedEventHoldsIsAnErrorSayingHowToMoveTheSequence) {
  // An import wrote the next positions the sequence will draw, for both appends below.
  exec_in_unit(
      *inbox_,
      "INSERT INTO docket_events (global_position, tenant, aggregate_type, aggregate_id, "
      "version, event_id, event_type, payload, occurred_at) SELECT p, 'acme', 'imported', "
      "'i-' || p, 0, gen_random_uuid(), 'imported', '', 0 FROM generate_series(2, 10) AS p");
  const StreamId stream(TenantId("acme"), "account", "a-2");
  expect_both_fail_writing_nothing(stream, "SELECT setval(pg_get_serial_sequence(");

  // The statement the error gives moves the sequence past the import.
  exec_in_unit(*inbox_,
               "SELECT setval(pg_get_serial_sequence('docket_events', 'global_position'), (SELECT "
               "max(global_position) FROM docket_events))");
  const AppendResult appended =
      events_->append(stream, ExpectedVersion::no_stream(), {NewEvent{.type = "a"}});
  ASSERT_TRUE(appended.succeeded());
  EXPECT_EQ(appended.success().events[0].global_position, 11);
}

TEST_F(PostgresAppendFailure, AUniqueIndexOfTheUsersIsTheServersErrorNotAConflict) {
  exec_in_unit(*inbox_, "CREATE UNIQUE INDEX users_one_event_type ON docket_events (event_type)");
  const StreamId stream(TenantId("acme"), "account", "a-3");
  // "opened" is taken by the first stream's event; "a" is not yet, so take it first.
  ASSERT_TRUE(
      events_->append(first_, ExpectedVersion::exactly(0), {NewEvent{.type = "a"}}).succeeded());
  expect_both_fail_writing_nothing(stream, "users_one_event_type");
}

}  // namespace
}  // namespace docket::conformance::eventsourcing::postgres_append_failure_test
