// The late-commit contract of read_all (docket/eventsourcing/event_store.h): a global position that
// commits after a higher one is never skipped by a consumer that checkpoints
// next_position. Runs for the providers in late_commit_providers(), whose appends can
// be in flight concurrently (PostgreSQL); the memory provider assigns positions at
// commit under its lock, so it has nothing in flight and is not listed.
#include "suite.h"

namespace docket::conformance::eventsourcing {
namespace {

using EventStoreLateCommit = StoreConformance;

TEST_P(EventStoreLateCommit, APositionCommittedLateIsNeverSkipped) {
  append_ok(account("A-0"), ExpectedVersion::no_stream(), {event("before")});
  const std::int64_t checkpoint = events_->read_all(0, 10).next_position;

  // Transaction 1 takes the lower position and stays open; transaction 2 takes a
  // higher one and commits first.
  auto pending = fixture_->begin_pending_append(*events_, account("A-1"), event("late"));
  append_ok(account("A-2"), ExpectedVersion::no_stream(), {event("early")});

  // While the lower position is in flight, a page stops before it.
  const ReadAllPage while_open = events_->read_all(checkpoint, 10);
  for (const RecordedEvent& e : while_open.events) {
    EXPECT_NE(e.type, "early") << "read_all passed a position that was still in flight";
  }

  pending->commit();
  std::vector<std::string> seen;
  std::int64_t next = while_open.next_position;
  for (const RecordedEvent& e : while_open.events) {
    seen.push_back(e.type);
  }
  for (ReadAllPage page = events_->read_all(next, 10); !page.events.empty();
       page = events_->read_all(next, 10)) {
    for (const RecordedEvent& e : page.events) {
      seen.push_back(e.type);
    }
    next = page.next_position;
  }
  EXPECT_EQ(seen, (std::vector<std::string>{"late", "early"}));
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(EventStoreLateCommit);
INSTANTIATE_TEST_SUITE_P(Providers, EventStoreLateCommit,
                         ::testing::ValuesIn(late_commit_providers()), provider_name);

}  // namespace
}  // namespace docket::conformance::eventsourcing
