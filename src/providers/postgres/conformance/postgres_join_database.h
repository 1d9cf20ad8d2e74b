// The PostgreSQL provider in the suites that run stores inside an inbox handler's unit
// of work (tests/conformance/eventsourcing/join_databases.h): its stores in one schema
// of the test server, its stores in a schema of their own (the other provider of
// another provider's refusals), and the projections' read model as a table of that
// schema.
#ifndef DOCKET_PROVIDERS_POSTGRES_CONFORMANCE_JOIN_DATABASE_H_
#define DOCKET_PROVIDERS_POSTGRES_CONFORMANCE_JOIN_DATABASE_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "conformance/eventsourcing/join_read_model.h"
#include "docket/core/clock.h"
#include "docket/eventsourcing/event_store.h"
#include "docket/inbox/inbox_store.h"
#include "docket/outbox/outbox_store.h"
#include "docket/postgres/event_store.h"
#include "docket/postgres/saga_store.h"
#include "docket/postgres/store.h"
#include "docket/postgres/transaction.h"
#include "docket/sagas/saga_store.h"
#include "providers/postgres/tests/postgres_schema.h"

namespace docket::postgres::conformance {

inline constexpr char kReadModelInsert[] =
    "INSERT INTO balances_read (tenant, account, version) VALUES ($1, $2, $3)";
inline constexpr char kReadModelHas[] =
    "SELECT count(*) FROM balances_read WHERE tenant = $1 AND account = $2 AND version = $3";

// The stores in one fresh schema; open_other_inbox uses a second one.
struct JoinDatabase {
  using Transaction = postgres::Transaction;
  using ReadModel =
      ::docket::conformance::SqlReadModel<Transaction, Value, kReadModelInsert, kReadModelHas>;
  static constexpr std::string_view kProvider = "postgres";

  std::unique_ptr<InboxStore> open_inbox(const Clock& clock) {
    return open_store(schema.url(), clock);
  }
  std::unique_ptr<OutboxStore> open_outbox(const Clock& clock) {
    return open_outbox_store({.conninfo = schema.url()}, clock);
  }
  std::unique_ptr<EventStore> open_events(const Clock& clock) {
    return open_event_store({.conninfo = schema.url()}, clock);
  }
  std::unique_ptr<SagaStore> open_sagas(const Clock& clock) {
    return open_saga_store({.conninfo = schema.url()}, clock);
  }
  std::unique_ptr<InboxStore> open_other_inbox(const Clock& clock) {
    return open_store(other.url(), clock);
  }
  std::vector<std::string> other_database_mentions() const {
    return {"no table of database", "same conninfo"};
  }

  test_support::PostgresSchema schema;
  test_support::PostgresSchema other;
};

// Stores in a fresh schema of their own.
struct ForeignStores {
  using Transaction = postgres::Transaction;
  static constexpr std::string_view kProvider = "postgres";
  std::unique_ptr<InboxStore> open_inbox(const Clock& clock) {
    return open_store(schema.url(), clock);
  }
  std::unique_ptr<EventStore> open_events(const Clock& clock) {
    return open_event_store({.conninfo = schema.url()}, clock);
  }
  std::unique_ptr<SagaStore> open_sagas(const Clock& clock) {
    return open_saga_store({.conninfo = schema.url()}, clock);
  }

  test_support::PostgresSchema schema;
};

}  // namespace docket::postgres::conformance

#endif  // DOCKET_PROVIDERS_POSTGRES_CONFORMANCE_JOIN_DATABASE_H_
