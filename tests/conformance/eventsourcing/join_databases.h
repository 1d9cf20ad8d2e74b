// One provider's database holding an inbox, an outbox and the event and saga stores,
// for the suites that run stores inside an inbox handler's unit of work
// (handler_append_test.cc, handler_saga_test.cc, tests/sagas). A provider whose stores
// join its inbox's transactions is listed in JoinDatabases by adding its Database type.
//
// A Database type has:
//   using Transaction = <the provider's HandlerTransaction wrapper>;
//   static constexpr std::string_view kProvider;          // provider_name()
//   open_inbox / open_outbox / open_events / open_sagas (const Clock&), all on one
//   database; open_other_inbox(const Clock&), an inbox on another database; and
//   other_database_mentions(), what a refusal of that inbox's transaction names;
//   using Foreign = <another provider>, and a member `foreign` of it, whose
//   open_inbox / open_events / open_sagas give that provider's stores, for the refusals
//   of a transaction of another provider.
#ifndef DOCKET_TESTS_CONFORMANCE_EVENTSOURCING_JOIN_DATABASES_H_
#define DOCKET_TESTS_CONFORMANCE_EVENTSOURCING_JOIN_DATABASES_H_

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "docket/clock.h"
#include "docket/error.h"
#include "docket/event_store.h"
#include "docket/inbox_store.h"
#include "docket/memory/database.h"
#include "docket/memory/event_store.h"
#include "docket/memory/saga_store.h"
#include "docket/memory/store.h"
#include "docket/memory/transaction.h"
#include "docket/outbox_store.h"
#include "docket/saga_store.h"
#ifdef DOCKET_HAVE_SQLITE
#include "docket/sqlite/event_store.h"
#include "docket/sqlite/saga_store.h"
#include "docket/sqlite/store.h"
#include "docket/sqlite/transaction.h"
#include "temp_dir.h"
#endif
#ifdef DOCKET_HAVE_POSTGRES
#include "docket/postgres/event_store.h"
#include "docket/postgres/saga_store.h"
#include "docket/postgres/store.h"
#include "docket/postgres/transaction.h"
#include "support/postgres_schema.h"
#endif

namespace docket::conformance::eventsourcing {

// The memory provider's stores, each on a database of its own: the other provider for
// SQLite and PostgreSQL.
struct MemoryForeign {
  using Transaction = memory::Transaction;
  static constexpr std::string_view kProvider = "memory";
  std::unique_ptr<InboxStore> open_inbox(const Clock& clock) { return memory::open_store(clock); }
  std::unique_ptr<EventStore> open_events(const Clock& clock) {
    return memory::open_event_store(clock);
  }
  std::unique_ptr<SagaStore> open_sagas(const Clock& clock) {
    return memory::open_saga_store(clock);
  }
};

#ifdef DOCKET_HAVE_SQLITE
struct SqliteDatabase {
  using Transaction = sqlite::Transaction;
  using Foreign = MemoryForeign;
  static constexpr std::string_view kProvider = "sqlite";

  SqliteDatabase() { options.path = dir.file("app.db"); }
  std::unique_ptr<InboxStore> open_inbox(const Clock& clock) {
    return sqlite::open_store(options, clock);
  }
  std::unique_ptr<OutboxStore> open_outbox(const Clock& clock) {
    return sqlite::open_outbox_store(options, clock);
  }
  std::unique_ptr<EventStore> open_events(const Clock& clock) {
    return sqlite::open_event_store(options, clock);
  }
  std::unique_ptr<SagaStore> open_sagas(const Clock& clock) {
    return sqlite::open_saga_store(options, clock);
  }
  std::unique_ptr<InboxStore> open_other_inbox(const Clock& clock) {
    sqlite::StoreOptions other;
    other.path = dir.file("other.db");
    return sqlite::open_store(other, clock);
  }
  std::vector<std::string> other_database_mentions() const {
    return {"other.db", "app.db", "StoreOptions::path"};
  }

  TempDir dir;
  sqlite::StoreOptions options;
  Foreign foreign;
};

// Private in-memory SQLite databases: the other provider for memory.
struct SqliteForeign {
  using Transaction = sqlite::Transaction;
  static constexpr std::string_view kProvider = "sqlite";
  std::unique_ptr<InboxStore> open_inbox(const Clock& clock) {
    return sqlite::open_store({.path = ":memory:"}, clock);
  }
  std::unique_ptr<EventStore> open_events(const Clock& clock) {
    return sqlite::open_event_store({.path = ":memory:"}, clock);
  }
  std::unique_ptr<SagaStore> open_sagas(const Clock& clock) {
    return sqlite::open_saga_store({.path = ":memory:"}, clock);
  }
};
#endif

#ifdef DOCKET_HAVE_POSTGRES
struct PostgresDatabase {
  using Transaction = postgres::Transaction;
  using Foreign = MemoryForeign;
  static constexpr std::string_view kProvider = "postgres";

  std::unique_ptr<InboxStore> open_inbox(const Clock& clock) {
    return postgres::open_store(schema.url(), clock);
  }
  std::unique_ptr<OutboxStore> open_outbox(const Clock& clock) {
    return postgres::open_outbox_store({.conninfo = schema.url()}, clock);
  }
  std::unique_ptr<EventStore> open_events(const Clock& clock) {
    return postgres::open_event_store({.conninfo = schema.url()}, clock);
  }
  std::unique_ptr<SagaStore> open_sagas(const Clock& clock) {
    return postgres::open_saga_store({.conninfo = schema.url()}, clock);
  }
  std::unique_ptr<InboxStore> open_other_inbox(const Clock& clock) {
    return postgres::open_store(other.url(), clock);
  }
  std::vector<std::string> other_database_mentions() const {
    return {"no table of database", "same conninfo"};
  }

  test_support::PostgresSchema schema;
  test_support::PostgresSchema other;
  Foreign foreign;
};
#endif

// The memory provider's stores on one docket::memory::Database.
struct MemoryDatabase {
  using Transaction = memory::Transaction;
#ifdef DOCKET_HAVE_SQLITE
  using Foreign = SqliteForeign;
#else
  using Foreign = PostgresDatabase;
#endif
  static constexpr std::string_view kProvider = "memory";

  std::unique_ptr<InboxStore> open_inbox(const Clock& clock) {
    return memory::open_store(database(clock));
  }
  std::unique_ptr<OutboxStore> open_outbox(const Clock& clock) {
    return memory::open_outbox_store(database(clock));
  }
  std::unique_ptr<EventStore> open_events(const Clock& clock) {
    return memory::open_event_store(database(clock));
  }
  std::unique_ptr<SagaStore> open_sagas(const Clock& clock) {
    return memory::open_saga_store(database(clock));
  }
  std::unique_ptr<InboxStore> open_other_inbox(const Clock& clock) {
    other = memory::open_database(clock);
    return memory::open_store(*other);
  }
  std::vector<std::string> other_database_mentions() const {
    return {"memory database " + std::to_string(other->id()),
            "memory database " + std::to_string(db->id()), "docket::memory::Database"};
  }

  // The database, opened on first use with the fixture's clock.
  const memory::Database& database(const Clock& clock) {
    if (!db) {
      db = memory::open_database(clock);
    }
    return *db;
  }

  std::optional<memory::Database> db;
  std::optional<memory::Database> other;
  Foreign foreign;
};

// Memory first; this header is built only when SQLite or PostgreSQL is, since each
// provider's refusals name another one.
using JoinDatabases = ::testing::Types<MemoryDatabase
#ifdef DOCKET_HAVE_SQLITE
                                       ,
                                       SqliteDatabase
#endif
#ifdef DOCKET_HAVE_POSTGRES
                                       ,
                                       PostgresDatabase
#endif
                                       >;

// Runs `call`, expecting ConfigurationError whose message names every one of `mentions`.
inline void expect_configuration_error(const std::function<void()>& call,
                                       const std::vector<std::string>& mentions) {
  try {
    call();
    ADD_FAILURE() << "expected ConfigurationError";
  } catch (const ConfigurationError& e) {
    for (const std::string& mention : mentions) {
      EXPECT_NE(std::string(e.what()).find(mention), std::string::npos)
          << "'" << e.what() << "' should mention '" << mention << "'";
    }
  }
}

}  // namespace docket::conformance::eventsourcing

#endif  // DOCKET_TESTS_CONFORMANCE_EVENTSOURCING_JOIN_DATABASES_H_
