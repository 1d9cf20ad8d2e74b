// The PostgreSQL provider under the event sourcing suites
// (tests/conformance/eventsourcing): a fresh schema of the test server (PostgresSchema;
// a missing DOCKET_TEST_POSTGRES_URL fails the test), so parallel test processes never
// see each other's rows. The three stores share it, as an application's would.
#include <memory>
#include <string>
#include <utility>

#include "conformance/eventsourcing/fixture.h"
#include "conformance/fixture_registry.h"
#include "docket/postgres/event_store.h"
#include "docket/postgres/saga_store.h"
#include "docket/postgres/snapshot_store.h"
#include "providers/postgres/postgres_event_rows.h"
#include "providers/postgres/postgres_eventsourcing_schema.h"
#include "providers/postgres/postgres_transaction_block.h"
#include "providers/postgres/tests/postgres_schema.h"

namespace docket::conformance::eventsourcing {
namespace {

using test_support::PostgresSchema;

// One append in a transaction of its own connection, left open after the insert.
class PostgresPendingAppend final : public PendingAppend {
 public:
  PostgresPendingAppend(const std::string& conninfo, const StreamId& stream, const NewEvent& event,
                        const Clock& clock)
      : connection_(conninfo), transaction_(connection_) {
    const std::vector<RecordedEvent> events{
        RecordedEvent{.stream = stream,
                      .version = 0,
                      .global_position = 0,
                      .event_id = Uuid::v7(),
                      .type = event.type,
                      .payload = event.payload,
                      .metadata = event.metadata,
                      .occurred_at = event.occurred_at.value_or(clock.now())}};
    const AppendResult result = postgres::detail::append_events(
        connection_, postgres::detail::events_lock_tag(connection_), stream, ExpectedVersion::any(),
        events, postgres::detail::Joining::kCallersTransaction);
    result.value_or_throw();
  }

  void commit() override { transaction_.commit(); }

 private:
  postgres::detail::Connection connection_;
  postgres::detail::TransactionBlock transaction_;
};

class PostgresFixture final : public StoreFixture {
 public:
  std::unique_ptr<EventStore> open_event_store(const Clock& clock) override {
    clock_ = &clock;
    return postgres::open_event_store({.conninfo = conninfo_}, clock);
  }
  std::unique_ptr<SnapshotStore> open_snapshot_store(const Clock& clock) override {
    return postgres::open_snapshot_store({.conninfo = conninfo_}, clock);
  }
  std::unique_ptr<SagaStore> open_saga_store(const Clock& clock) override {
    return postgres::open_saga_store({.conninfo = conninfo_}, clock);
  }

  std::unique_ptr<PendingAppend> begin_pending_append(EventStore&, const StreamId& stream,
                                                      const NewEvent& event) override {
    return std::make_unique<PostgresPendingAppend>(
        conninfo_, stream, event, clock_ != nullptr ? *clock_ : SystemClock::instance());
  }

 private:
  PostgresSchema schema_;
  const std::string conninfo_ = schema_.url();
  const Clock* clock_ = nullptr;
};

const FixtureRegistrar<ProviderCase> kPostgresEventsourcingCase{
    {.name = "postgres",
     .provider = "postgres",
     .make = [] { return std::unique_ptr<StoreFixture>(std::make_unique<PostgresFixture>()); },
     .feed = FeedKind::kGlobalPositions,
     .multi_process = true,
     .late_commit = true}};

}  // namespace
}  // namespace docket::conformance::eventsourcing
