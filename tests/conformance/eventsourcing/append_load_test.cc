// Append and load: versions, assigned ids and times, the three expectations, atomic
// multi-event appends, and refusal of bad input with nothing written.
#include <string>

#include "docket/core/error.h"
#include "suite.h"

namespace docket::conformance::eventsourcing {
namespace {

using EventStoreAppend = StoreConformance;

TEST_P(EventStoreAppend, AppendsAndLoadsEveryField) {
  const std::string binary("a\0b\xff", 4);
  NewEvent opened = event("opened", binary);
  opened.metadata =
      EventMetadata{.correlation_id = "conv-1",
                    .causation_id = "msg-9",
                    .trace_context = parse_trace_context(
                        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "vendor=v1")};
  NewEvent deposited = event("deposited", "100");
  deposited.occurred_at = start_ - std::chrono::hours(1);
  ASSERT_TRUE(opened.metadata.trace_context.has_value());

  const AppendResult result =
      events_->append(account("A-1"), ExpectedVersion::no_stream(), {opened, deposited});
  ASSERT_TRUE(result.succeeded());
  const AppendSuccess& success = result.success();
  EXPECT_EQ(success.new_version, 1);
  ASSERT_EQ(success.events.size(), 2u);
  EXPECT_EQ(success.events[0].version, 0);
  EXPECT_EQ(success.events[1].version, 1);
  expect_positions(success.events);
  EXPECT_EQ(success.events[0].event_id.version(), 7);
  EXPECT_LT(success.events[0].event_id, success.events[1].event_id);

  const std::vector<RecordedEvent> loaded = events_->load(account("A-1"));
  ASSERT_EQ(loaded.size(), 2u);
  EXPECT_EQ(loaded[0].stream, account("A-1"));
  EXPECT_EQ(loaded[0].type, "opened");
  EXPECT_EQ(loaded[0].payload, binary);
  EXPECT_EQ(loaded[0].metadata, opened.metadata);
  EXPECT_EQ(loaded[0].occurred_at, start_);  // the store's clock when none was given
  EXPECT_EQ(loaded[1].occurred_at, start_ - std::chrono::hours(1));
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(loaded[i].version, success.events[i].version);
    EXPECT_EQ(loaded[i].global_position, success.events[i].global_position);
    EXPECT_EQ(loaded[i].event_id, success.events[i].event_id);
    EXPECT_EQ(loaded[i].occurred_at, success.events[i].occurred_at);
  }
}

TEST_P(EventStoreAppend, LoadsFromAVersion) {
  append_ok(account("A-1"), ExpectedVersion::no_stream(),
            {event("e0"), event("e1"), event("e2"), event("e3"), event("e4")});
  const auto tail = events_->load(account("A-1"), 3);
  ASSERT_EQ(tail.size(), 2u);
  EXPECT_EQ(tail[0].type, "e3");
  EXPECT_EQ(tail[1].version, 4);
  EXPECT_TRUE(events_->load(account("A-1"), 5).empty());
  EXPECT_TRUE(events_->load(account("missing")).empty());
}

TEST_P(EventStoreAppend, ExactExpectationConflictsWhenStale) {
  append_ok(account("A-1"), ExpectedVersion::no_stream(), {event("e0"), event("e1")});
  EXPECT_EQ(append_ok(account("A-1"), ExpectedVersion::exactly(1), {event("e2")}), 2);

  const AppendResult stale =
      events_->append(account("A-1"), ExpectedVersion::exactly(1), {event("late")});
  ASSERT_TRUE(stale.is_conflict());
  EXPECT_EQ(stale.conflict().expected_version, 1);
  EXPECT_EQ(stale.conflict().actual_version, 2);
  EXPECT_NE(stale.conflict().message().find("A-1"), std::string::npos);

  const AppendResult ahead =
      events_->append(account("B-1"), ExpectedVersion::exactly(0), {event("e0")});
  ASSERT_TRUE(ahead.is_conflict());
  EXPECT_EQ(ahead.conflict().actual_version, kNoStreamVersion);
  EXPECT_EQ(events_->load(account("A-1")).size(), 3u);
  EXPECT_TRUE(events_->load(account("B-1")).empty());
}

TEST_P(EventStoreAppend, NoStreamExpectationConflictsOnAnExistingStream) {
  append_ok(account("A-1"), ExpectedVersion::no_stream(), {event("e0")});
  const AppendResult again =
      events_->append(account("A-1"), ExpectedVersion::no_stream(), {event("e0")});
  ASSERT_TRUE(again.is_conflict());
  EXPECT_EQ(again.conflict().expected_version, kNoStreamVersion);
  EXPECT_EQ(again.conflict().actual_version, 0);
  EXPECT_EQ(events_->load(account("A-1")).size(), 1u);
}

TEST_P(EventStoreAppend, AnyVersionAppendsAfterWhateverIsThere) {
  EXPECT_EQ(append_ok(account("A-1"), ExpectedVersion::any(), {event("e0")}), 0);
  EXPECT_EQ(append_ok(account("A-1"), ExpectedVersion::any(), {event("e1"), event("e2")}), 2);
  EXPECT_EQ(events_->load(account("A-1")).back().type, "e2");
}

TEST_P(EventStoreAppend, ConflictingMultiEventAppendWritesNothing) {
  append_ok(account("A-1"), ExpectedVersion::no_stream(), {event("e0"), event("e1")});
  const AppendResult stale = events_->append(account("A-1"), ExpectedVersion::exactly(0),
                                             {event("x"), event("y"), event("z")});
  ASSERT_TRUE(stale.is_conflict());
  EXPECT_EQ(events_->load(account("A-1")).size(), 2u);
  expect_store_total(2u);
  EXPECT_EQ(append_ok(account("A-1"), ExpectedVersion::exactly(1), {event("e2"), event("e3")}), 3);
  const auto loaded = events_->load(account("A-1"));
  ASSERT_EQ(loaded.size(), 4u);
  for (std::size_t v = 0; v < loaded.size(); ++v) {
    EXPECT_EQ(loaded[v].version, static_cast<std::int64_t>(v));
    EXPECT_EQ(loaded[v].type, "e" + std::to_string(v));
  }
}

TEST_P(EventStoreAppend, ValueOrThrowRaisesTheConflict) {
  append_ok(account("A-1"), ExpectedVersion::no_stream(), {event("e0")});
  const AppendResult stale =
      events_->append(account("A-1"), ExpectedVersion::no_stream(), {event("e0")});
  try {
    stale.value_or_throw();
    FAIL() << "expected ConcurrencyConflictError";
  } catch (const ConcurrencyConflictError& e) {
    EXPECT_EQ(e.expected_version(), kNoStreamVersion);
    EXPECT_EQ(e.actual_version(), 0);
  }
  EXPECT_THROW((void)stale.success(), ConcurrencyConflictError)
      << "a docket error, as value_or_throw()";
}

TEST_P(EventStoreAppend, RefusesBadEventsAndWritesNothing) {
  const StreamId stream = account("A-1");
  const auto refuses = [&](std::vector<NewEvent> events, const std::string& needle) {
    try {
      events_->append(stream, ExpectedVersion::any(), events);
      ADD_FAILURE() << "accepted a bad append; expected: " << needle;
    } catch (const InvalidInputError& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  refuses({}, "has no events");
  refuses({event("ok"), event("")}, "event 1 of the append");
  refuses({event("bad\xc3")}, "event type is not valid UTF-8");
  refuses({event(std::string(kMaxEventTypeBytes + 1, 't'))}, "bytes long");
  NewEvent bad_lineage = event("ok");
  bad_lineage.metadata.correlation_id = "\xed\xa0\x80";
  refuses({bad_lineage}, "correlation id");
  EXPECT_TRUE(events_->load(stream).empty());
  expect_store_total(0u);
  EXPECT_THROW(events_->load(stream, -1), InvalidInputError);
}

TEST_P(EventStoreAppend, IdentitiesAndExpectationsAreValidated) {
  EXPECT_THROW(StreamId(tenant("acme"), "", "A-1"), InvalidInputError);
  EXPECT_THROW(StreamId(tenant("acme"), "account", ""), InvalidInputError);
  EXPECT_THROW(StreamId(tenant("acme"), "account", "\xff"), InvalidInputError);
  EXPECT_THROW(StreamId(tenant("acme"), "account", std::string(kMaxAggregateIdBytes + 1, 'i')),
               InvalidInputError);
  EXPECT_NO_THROW(StreamId(tenant("acme"), "account", std::string(kMaxAggregateIdBytes, 'i')));
  EXPECT_THROW(ExpectedVersion::exactly(-1), InvalidInputError);
  EXPECT_THROW(ExpectedVersion::from_value(-3), InvalidInputError);
  EXPECT_EQ(ExpectedVersion::from_value(-1), ExpectedVersion::no_stream());
  EXPECT_EQ(ExpectedVersion::from_value(-2), ExpectedVersion::any());
  EXPECT_EQ(ExpectedVersion::from_value(4), ExpectedVersion::exactly(4));
}

INSTANTIATE_TEST_SUITE_P(Providers, EventStoreAppend, ::testing::ValuesIn(event_providers()),
                         provider_name);

}  // namespace
}  // namespace docket::conformance::eventsourcing
