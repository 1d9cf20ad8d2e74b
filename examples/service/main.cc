// docs/application-api.md's service: orders staged with their row, billing through the inbox
// with every message delivered twice, a saga, an account as a typed aggregate with snapshots.
// Usage: service [store URL]; SQLite or PostgreSQL, and only the URL changes.
#include <cstdint>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "docket/docket.h"

struct OrderPlaced {
  static constexpr std::string_view kMessageType = "order-placed";
  std::string order_id, customer;
  std::int64_t cents = 0;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(OrderPlaced, order_id, customer, cents)
struct OrderInvoiced {
  static constexpr std::string_view kMessageType = "order-invoiced";
  std::string order_id;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(OrderInvoiced, order_id)
// A customer's account, event-sourced: charged once per invoice.
struct Charged {
  static constexpr std::string_view kMessageType = "charged";
  std::int64_t cents = 0;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Charged, cents)
struct Account {
  std::int64_t owed = 0;
  void evolve(const Charged& e) { owed += e.cents; }
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Account, owed)  // the snapshots' codec
// The fulfilment saga: one per order, done once the order is invoiced.
struct Fulfilment {
  std::string order_id;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Fulfilment, order_id)
const auto by_order = [](const auto& e, const docket::HandlerContext&) { return e.order_id; };

int main(int argc, char** argv) try {
  const auto temp_db = std::filesystem::temp_directory_path() / "docket-service.db";
  const std::string url = argc > 1 ? argv[1] : "sqlite://" + temp_db.string();
  auto outbox_store = docket::open_outbox_store(url);  // every store in the one database
  auto inbox_store = docket::open_inbox_store(url);
  auto events = docket::open_event_store(url);
  auto snapshots = docket::open_snapshot_store(url);
  auto sagas = docket::open_saga_store(url);
  const docket::Outbox outbox(*outbox_store);
  const docket::TypedAggregateRepository<Account, Charged> accounts(*events, "account", *snapshots,
                                                                    /*snapshot_after_events=*/1);
  const docket::TenantId acme("acme");
  const docket::TenantScope tenant(acme);
  // Orders: each row commits with its OrderPlaced, or neither does.
  const std::string customer = "C-" + docket::Uuid::v7().to_string();
  std::vector<std::string> orders;
  std::int64_t after = -1;  // the outbox feed's position before this run's first message
  for (const std::int64_t cents : {1200, 3400, 560}) {
    auto unit = outbox_store->begin();
    auto& sql = unit->transaction<docket::SqlTransaction>();
    sql.execute("CREATE TABLE IF NOT EXISTS orders (id TEXT PRIMARY KEY, cents BIGINT NOT NULL)");
    sql.execute("CREATE TABLE IF NOT EXISTS invoices (order_id TEXT PRIMARY KEY, cents BIGINT)");
    orders.push_back("O-" + docket::Uuid::v7().to_string());
    sql.execute("INSERT INTO orders (id, cents) VALUES ($1, $2)", {orders.back(), cents});
    const auto id = outbox.send(sql, OrderPlaced{orders.back(), customer, cents});
    unit->commit();
    after = after < 0 ? outbox_store->find(id.to_string())->sequence - 1 : after;
  }

  // Billing: the invoice, the account's charge and OrderInvoiced commit with the dedup record.
  docket::HandlerRegistry billing_handlers;
  billing_handlers.on([&](const OrderPlaced& e, docket::SqlTransaction& sql,
                          docket::HandlerContext& ctx) {
    sql.execute("INSERT INTO invoices (order_id, cents) VALUES ($1, $2)", {e.order_id, e.cents});
    const auto charged = accounts.execute(ctx.transaction(), ctx.tenant(), e.customer,
                                          [&](const Account&) { return Charged{e.cents}; });
    if (charged.conflict) {
      charged.conflict->raise();  // nothing commits; the redelivery decides again
    }
    outbox.send(sql, OrderInvoiced{e.order_id});
  });
  const auto skip_others = docket::UnhandledTypes::kMarkProcessed;  // one feed, many types
  const docket::InboxDispatcher billing(*inbox_store,
                                        docket::InboxOptions("billing", {}, nullptr, skip_others),
                                        std::move(billing_handlers));

  // Fulfilment: a saga per order, started by OrderPlaced, done once invoiced.
  docket::HandlerRegistry fulfilment_handlers;
  docket::SagaCoordinator<Fulfilment>(fulfilment_handlers, "fulfilment", *sagas, &outbox)
      .starts(by_order, [](Fulfilment& s, const OrderPlaced& e,
                           docket::SagaStepContext&) { s.order_id = e.order_id; })
      .continues(by_order, [](Fulfilment&, const OrderInvoiced&, docket::SagaStepContext& step) {
        step.complete();  // a step may also send: step.send(ShipOrder{...})
      });
  const docket::InboxDispatcher fulfilment(
      *inbox_store, docket::InboxOptions("fulfilment", {}, nullptr, skip_others),
      std::move(fulfilment_handlers));

  // A relay would publish the outbox; here its feed reaches both consumers, twice a message.
  for (auto feed = outbox_store->read_feed(after, 100); !feed.empty();
       feed = outbox_store->read_feed(after, 100)) {
    for (const docket::OutboxRecord& record : feed) {
      for (const auto* consumer : {&billing, &fulfilment, &billing, &fulfilment}) {
        consumer->dispatch(docket::to_envelope(record));
      }
      after = record.sequence;
    }
  }

  accounts.load(acme, customer);                       // replays 3 events, so saves a snapshot
  const auto account = accounts.load(acme, customer);  // from the snapshot
  const auto saga = sagas->load(docket::SagaId(acme, "fulfilment", orders.back()));
  std::cout << "owed " << account.state.owed << ", saga version " << saga->version << '\n';
  return account.state.owed != 5160 || account.snapshot != docket::SnapshotUse::kUsed ||
         saga->status != docket::SagaStatus::kCompleted;
} catch (const std::exception& e) {  // a docket error names what was wrong and what to do
  std::cerr << "service: " << e.what() << '\n';
  return 2;
}
