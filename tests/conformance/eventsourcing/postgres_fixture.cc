// The PostgreSQL provider on a fresh schema of the test server (DOCKET_TEST_POSTGRES_URL;
// a missing variable fails the test): the stores connect with search_path set to it,
// so parallel test processes never see each other's rows. The schema is dropped with
// the fixture. The three stores share it, as an application's would.
#include <memory>
#include <string>
#include <utility>

#include "docket/postgres/event_store.h"
#include "docket/postgres/saga_store.h"
#include "docket/postgres/snapshot_store.h"
#include "fixture.h"
#include "providers/postgres/event_rows.h"
#include "providers/postgres/eventsourcing_schema.h"
#include "providers/postgres/exec.h"
#include "providers/postgres/transaction.h"
#include "support/postgres_env.h"

namespace docket::conformance::eventsourcing {
namespace {

// `url` with `search_path` set to `schema` (and NOTICEs off) for every connection made from it.
std::string with_search_path(const std::string& url, const std::string& schema) {
  if (url.starts_with("postgresql://") || url.starts_with("postgres://")) {
    return url + (url.find('?') == std::string::npos ? "?" : "&") + "options=-csearch_path%3D" +
           schema;
  }
  return url + " options='-csearch_path=" + schema + " -cclient_min_messages=warning'";
}

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
    const AppendResult result =
        postgres::append_events(connection_, postgres::events_lock_tag(connection_), stream,
                                ExpectedVersion::any(), events);
    result.value_or_throw();
  }

  void commit() override { transaction_.commit(); }

 private:
  postgres::Connection connection_;
  postgres::Transaction transaction_;
};

class PostgresFixture final : public StoreFixture {
 public:
  PostgresFixture()
      : admin_(test_support::postgres_test_url()),
        schema_(test_support::unique_name("docket_es")),
        conninfo_(with_search_path(test_support::postgres_test_url(), schema_)) {
    postgres::exec_script(admin_, "SET client_min_messages = warning; CREATE SCHEMA " + schema_);
  }
  ~PostgresFixture() override {
    postgres::exec_script(admin_, "DROP SCHEMA " + schema_ + " CASCADE");
  }

  std::unique_ptr<EventStore> open_event_store(const Clock& clock) override {
    clock_ = &clock;
    return postgres::open_event_store(conninfo_, clock);
  }
  std::unique_ptr<SnapshotStore> open_snapshot_store(const Clock& clock) override {
    return postgres::open_snapshot_store(conninfo_, clock);
  }
  std::unique_ptr<SagaStore> open_saga_store(const Clock& clock) override {
    return postgres::open_saga_store(conninfo_, clock);
  }

  std::unique_ptr<PendingAppend> begin_pending_append(EventStore&, const StreamId& stream,
                                                      const NewEvent& event) override {
    return std::make_unique<PostgresPendingAppend>(
        conninfo_, stream, event, clock_ != nullptr ? *clock_ : SystemClock::instance());
  }

 private:
  postgres::Connection admin_;
  std::string schema_;
  std::string conninfo_;
  const Clock* clock_ = nullptr;
};

}  // namespace

std::unique_ptr<StoreFixture> make_postgres_fixture() {
  return std::make_unique<PostgresFixture>();
}

}  // namespace docket::conformance::eventsourcing
