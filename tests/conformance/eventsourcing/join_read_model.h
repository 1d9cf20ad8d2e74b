// What the projection suites' handlers write inside an inbox's unit of work, on each
// provider of EventJoinDatabases: a read model "balances_read" with one row per applied
// event, keyed by (tenant, account, version). Applying one event twice fails the
// handler on that key (its own unique violation), so a double application can never
// pass unnoticed.
//
// A provider's JoinDatabase names its read model as `using ReadModel = ...;`, a type
// with
//   using Tx = <the provider's handler transaction>;
//   void create(InboxStore&);                 // the table, where one is needed
//   void apply(Tx&, const Applied&);          // inside the handler
//   std::size_t count(InboxStore&);           // rows committed
//   bool has(InboxStore&, const Applied&);
// (static where it keeps no state), made from the JoinDatabase where it takes one (a key
// prefix of the database's own: Redis), else default-constructed.
// SQL providers share SqlReadModel, which differs between them only by placeholders.
#ifndef DOCKET_TESTS_CONFORMANCE_EVENTSOURCING_JOIN_READ_MODEL_H_
#define DOCKET_TESTS_CONFORMANCE_EVENTSOURCING_JOIN_READ_MODEL_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "docket/inbox/inbox_store.h"

namespace docket::conformance {

// One read-model row: which event of which account was applied.
struct Applied {
  std::string tenant;
  std::string account;
  std::int64_t version = 0;
};

// The read model on a SQL provider whose transaction offers exec/query over `Value`s;
// kInsert and kHas bind (tenant, account, version) in that order.
template <class Transaction, class Value, const char* kInsert, const char* kHas>
struct SqlReadModel {
  using Tx = Transaction;
  static void create(InboxStore& store) {
    auto unit = store.begin();
    native(*unit).exec(
        "CREATE TABLE balances_read (tenant TEXT NOT NULL, account TEXT NOT NULL, "
        "version BIGINT NOT NULL, PRIMARY KEY (tenant, account, version))",
        std::vector<Value>{});
    unit->commit();
  }
  static void apply(Tx& tx, const Applied& row) {
    tx.exec(kInsert, std::vector<Value>{row.tenant, row.account, row.version});
  }
  static std::size_t count(InboxStore& store) {
    auto unit = store.begin();
    const auto rows =
        native(*unit).query("SELECT count(*) FROM balances_read", std::vector<Value>{});
    return static_cast<std::size_t>(std::get<std::int64_t>(rows.at(0).at(0)));
  }
  static bool has(InboxStore& store, const Applied& row) {
    auto unit = store.begin();
    const auto rows =
        native(*unit).query(kHas, std::vector<Value>{row.tenant, row.account, row.version});
    return std::get<std::int64_t>(rows.at(0).at(0)) == 1;
  }
  static Tx& native(UnitOfWork& unit) { return dynamic_cast<Tx&>(unit.handler_transaction()); }
};

}  // namespace docket::conformance

#endif  // DOCKET_TESTS_CONFORMANCE_EVENTSOURCING_JOIN_READ_MODEL_H_
