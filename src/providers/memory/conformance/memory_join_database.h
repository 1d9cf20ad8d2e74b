// The memory provider in the suites that run stores inside an inbox handler's unit of
// work (tests/conformance/eventsourcing/join_databases.h): its stores on one
// docket::memory::Database, its stores on databases of their own (the other provider
// of another provider's refusals), and the projections' read model as a table of the
// memory database.
#ifndef DOCKET_PROVIDERS_MEMORY_CONFORMANCE_JOIN_DATABASE_H_
#define DOCKET_PROVIDERS_MEMORY_CONFORMANCE_JOIN_DATABASE_H_

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "conformance/eventsourcing/join_read_model.h"
#include "docket/core/clock.h"
#include "docket/eventsourcing/event_store.h"
#include "docket/inbox/inbox_store.h"
#include "docket/memory/database.h"
#include "docket/memory/event_store.h"
#include "docket/memory/saga_store.h"
#include "docket/memory/store.h"
#include "docket/memory/transaction.h"
#include "docket/outbox/outbox_store.h"
#include "docket/sagas/saga_store.h"

namespace docket::memory::conformance {

// The read model as a memory table: an insert of a key already present is the
// handler's own unique violation.
struct ReadModel {
  using Tx = Transaction;
  using Applied = ::docket::conformance::Applied;
  static void create(InboxStore&) {}
  static void apply(Tx& tx, const Applied& row) {
    tx.insert("balances_read", {row.tenant, row.account, std::to_string(row.version)});
  }
  static std::size_t count(InboxStore& store) {
    auto unit = store.begin();  // an empty unit of work sees the committed rows
    return dynamic_cast<Tx&>(unit->handler_transaction()).count("balances_read");
  }
  static bool has(InboxStore& store, const Applied& row) {
    auto unit = store.begin();
    return dynamic_cast<Tx&>(unit->handler_transaction())
        .find("balances_read", {row.tenant, row.account, std::to_string(row.version)})
        .has_value();
  }
};

// The stores on one docket::memory::Database, opened on first use with the fixture's
// clock.
struct JoinDatabase {
  using Transaction = memory::Transaction;
  using ReadModel = conformance::ReadModel;
  static constexpr std::string_view kProvider = "memory";

  std::unique_ptr<InboxStore> open_inbox(const Clock& clock) { return open_store(database(clock)); }
  std::unique_ptr<OutboxStore> open_outbox(const Clock& clock) {
    return open_outbox_store(database(clock));
  }
  std::unique_ptr<EventStore> open_events(const Clock& clock) {
    return open_event_store(database(clock));
  }
  std::unique_ptr<SagaStore> open_sagas(const Clock& clock) {
    return open_saga_store(database(clock));
  }
  std::unique_ptr<InboxStore> open_other_inbox(const Clock& clock) {
    other = open_database(clock);
    return open_store(*other);
  }
  std::vector<std::string> other_database_mentions() const {
    return {"memory database " + std::to_string(other->id()),
            "memory database " + std::to_string(db->id()), "docket::memory::Database"};
  }

  const Database& database(const Clock& clock) {
    if (!db) {
      db = open_database(clock);
    }
    return *db;
  }

  std::optional<Database> db;
  std::optional<Database> other;
};

// Stores on databases of their own.
struct ForeignStores {
  using Transaction = memory::Transaction;
  static constexpr std::string_view kProvider = "memory";
  std::unique_ptr<InboxStore> open_inbox(const Clock& clock) { return open_store(clock); }
  std::unique_ptr<EventStore> open_events(const Clock& clock) { return open_event_store(clock); }
  std::unique_ptr<SagaStore> open_sagas(const Clock& clock) { return open_saga_store(clock); }
};

}  // namespace docket::memory::conformance

#endif  // DOCKET_PROVIDERS_MEMORY_CONFORMANCE_JOIN_DATABASE_H_
