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
//   other_database_mentions(), what a refusal of that inbox's transaction names.
#ifndef DOCKET_TESTS_CONFORMANCE_EVENTSOURCING_JOIN_DATABASES_H_
#define DOCKET_TESTS_CONFORMANCE_EVENTSOURCING_JOIN_DATABASES_H_

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "docket/clock.h"
#include "docket/error.h"
#include "docket/event_store.h"
#include "docket/inbox_store.h"
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

#ifdef DOCKET_HAVE_SQLITE
struct SqliteDatabase {
  using Transaction = sqlite::Transaction;
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
  static std::vector<std::string> other_database_mentions() {
    return {"other.db", "app.db", "StoreOptions::path"};
  }

  TempDir dir;
  sqlite::StoreOptions options;
};
#endif

#ifdef DOCKET_HAVE_POSTGRES
struct PostgresDatabase {
  using Transaction = postgres::Transaction;
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
  static std::vector<std::string> other_database_mentions() {
    return {"no table of database", "same conninfo"};
  }

  test_support::PostgresSchema schema;
  test_support::PostgresSchema other;
};
#endif

using JoinDatabases = ::testing::Types<
#ifdef DOCKET_HAVE_SQLITE
    SqliteDatabase
#endif
#if defined(DOCKET_HAVE_SQLITE) && defined(DOCKET_HAVE_POSTGRES)
    ,
#endif
#ifdef DOCKET_HAVE_POSTGRES
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
