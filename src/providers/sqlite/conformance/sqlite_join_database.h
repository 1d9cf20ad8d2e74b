// The SQLite provider in the suites that run stores inside an inbox handler's unit of
// work (tests/conformance/eventsourcing/join_databases.h): its stores on one database
// file, its stores on private in-memory databases (the other provider of another
// provider's refusals), and the projections' read model as a table of that file.
#ifndef DOCKET_PROVIDERS_SQLITE_CONFORMANCE_JOIN_DATABASE_H_
#define DOCKET_PROVIDERS_SQLITE_CONFORMANCE_JOIN_DATABASE_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "conformance/eventsourcing/join_read_model.h"
#include "conformance/eventsourcing/temp_dir.h"
#include "docket/core/clock.h"
#include "docket/eventsourcing/event_store.h"
#include "docket/inbox/inbox_store.h"
#include "docket/outbox/outbox_store.h"
#include "docket/sagas/saga_store.h"
#include "docket/sqlite/event_store.h"
#include "docket/sqlite/saga_store.h"
#include "docket/sqlite/store.h"
#include "docket/sqlite/transaction.h"

namespace docket::sqlite::conformance {

inline constexpr char kReadModelInsert[] =
    "INSERT INTO balances_read (tenant, account, version) VALUES (?1, ?2, ?3)";
inline constexpr char kReadModelHas[] =
    "SELECT count(*) FROM balances_read WHERE tenant = ?1 AND account = ?2 AND version = ?3";

// The stores on one database file in a directory of the fixture's own.
struct JoinDatabase {
  using Transaction = sqlite::Transaction;
  using ReadModel =
      ::docket::conformance::SqlReadModel<Transaction, Value, kReadModelInsert, kReadModelHas>;
  static constexpr std::string_view kProvider = "sqlite";

  JoinDatabase() { options.path = dir.file("app.db"); }
  std::unique_ptr<InboxStore> open_inbox(const Clock& clock) { return open_store(options, clock); }
  std::unique_ptr<OutboxStore> open_outbox(const Clock& clock) {
    return open_outbox_store(options, clock);
  }
  std::unique_ptr<EventStore> open_events(const Clock& clock) {
    return open_event_store(options, clock);
  }
  std::unique_ptr<SagaStore> open_sagas(const Clock& clock) {
    return open_saga_store(options, clock);
  }
  std::unique_ptr<InboxStore> open_other_inbox(const Clock& clock) {
    StoreOptions other;
    other.path = dir.file("other.db");
    return open_store(other, clock);
  }
  std::vector<std::string> other_database_mentions() const {
    return {"other.db", "app.db", "StoreOptions::path"};
  }

  ::docket::conformance::eventsourcing::TempDir dir;
  StoreOptions options;
};

// Stores on private in-memory databases, one each.
struct ForeignStores {
  using Transaction = sqlite::Transaction;
  static constexpr std::string_view kProvider = "sqlite";
  std::unique_ptr<InboxStore> open_inbox(const Clock& clock) {
    return open_store({.path = ":memory:"}, clock);
  }
  std::unique_ptr<EventStore> open_events(const Clock& clock) {
    return open_event_store({.path = ":memory:"}, clock);
  }
  std::unique_ptr<SagaStore> open_sagas(const Clock& clock) {
    return open_saga_store({.path = ":memory:"}, clock);
  }
};

}  // namespace docket::sqlite::conformance

#endif  // DOCKET_PROVIDERS_SQLITE_CONFORMANCE_JOIN_DATABASE_H_
