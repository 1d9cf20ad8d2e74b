// docs/eventsourcing.md's C++ blocks, compiled (tests/docs/check_snippets.cmake): each in
// a namespace of its own with the declarations it uses (stores, a tenant, the message
// types), statements in functions. Compiled only: nothing here runs, so what is only
// declared needs no definition.
//
// Thread-safety: nothing runs.
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "docket/docket.h"
#include "docket/memory/database.h"
#include "docket/memory/event_store.h"
#include "docket/memory/saga_store.h"
#include "docket/memory/store.h"
#include "docket/sqlite/transaction.h"

namespace docs_eventsourcing_aggregate {

struct Account {
  std::int64_t balance = 0;
};
docket::AggregateSpec<Account> account_spec();
using Command = std::function<std::vector<docket::NewEvent>(const Account&)>;
Command deposit(std::int64_t cents);
Command withdraw(std::int64_t cents);

void run(docket::EventStore* events, const std::unique_ptr<docket::SnapshotStore>& snapshots,
         const docket::TenantId& tenant) {
  // clang-format off
docket::AggregateRepository<Account> accounts(*events, account_spec(), snapshots.get());
accounts.execute(tenant, "A-1", deposit(100));
auto result = accounts.execute(tenant, "A-1", withdraw(30));
if (result.conflict) { /* reload and retry, or report */ }
  // clang-format on
}

}  // namespace docs_eventsourcing_aggregate

namespace docs_eventsourcing_typed {

extern std::unique_ptr<docket::EventStore> events;
extern std::unique_ptr<docket::SnapshotStore> snapshots;
extern const docket::TenantId tenant;

// clang-format off
struct Deposited { static constexpr std::string_view kMessageType = "deposited"; std::int64_t cents = 0; };
struct Withdrawn { static constexpr std::string_view kMessageType = "withdrawn"; std::int64_t cents = 0; };
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Deposited, cents)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Withdrawn, cents)

struct Account {
  std::int64_t balance = 0;
  void evolve(const Deposited& e) { balance += e.cents; }
  void evolve(const Withdrawn& e) { balance -= e.cents; }
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Account, balance)  // the snapshot's codec

using Accounts = docket::TypedAggregateRepository<Account, Deposited, Withdrawn>;
const Accounts accounts(*events, "account", *snapshots, /*snapshot_after_events=*/50);
auto r = accounts.execute(tenant, "A-1", [](const Account& a) -> Accounts::Decision {
  if (a.balance < 30) return {};  // nothing to append
  return {Withdrawn{30}};
});
// clang-format on

}  // namespace docs_eventsourcing_typed

namespace docs_eventsourcing_sagas {

struct OrderPlaced {
  std::string order;
  std::int64_t cents = 0;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(OrderPlaced, order, cents)
struct PaymentCaptured {
  std::string order;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(PaymentCaptured, order)
struct Fulfilment {
  std::string order;
  bool paid = false;
  bool shipped = false;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Fulfilment, order, paid, shipped)

const auto by_order = [](const auto& event, const docket::HandlerContext&) -> std::string {
  return event.order;
};

void run(docket::InboxStore* inbox_store, docket::SagaStore* sagas, const docket::Outbox& outbox) {
  // clang-format off
docket::HandlerRegistry handlers;
docket::SagaCoordinator<Fulfilment>(handlers, "order-fulfilment", *sagas, &outbox)
    .starts<OrderPlaced>("order-placed", by_order,
        [](Fulfilment& s, const OrderPlaced& e, docket::SagaStepContext& step) {
          s.order = e.order;
          step.send("capture-payment", e);   // staged in the same unit of work
        })
    .continues<PaymentCaptured>("payment-captured", by_order,
        [](Fulfilment& s, const PaymentCaptured&, docket::SagaStepContext& step) {
          s.paid = true;
          if (s.shipped) step.complete();
        });
docket::InboxDispatcher inbox(*inbox_store, docket::InboxOptions("fulfilment"),
                              std::move(handlers));
  // clang-format on
}

}  // namespace docs_eventsourcing_sagas

namespace docs_eventsourcing_timeouts {

using namespace std::chrono_literals;

struct CheckoutStarted {
  std::string order;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(CheckoutStarted, order)
struct PaymentReceived {
  std::string order;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(PaymentReceived, order)
struct PaymentDue {
  std::string order;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(PaymentDue, order)
struct CancelOrder {
  std::string order;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(CancelOrder, order)

const auto by_order = [](const auto& event, const docket::HandlerContext&) -> std::string {
  return event.order;
};

// clang-format off
struct Checkout {
  std::string order;
  bool paid = false;
  docket::SagaTimeouts timeouts;   // pending timeouts, kept with the state
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Checkout, order, paid, timeouts)
// clang-format on

void run(docket::HandlerRegistry& handlers, docket::SagaStore* sagas, const docket::Outbox& outbox,
         const docket::Clock& clock) {
  // clang-format off
docket::SagaCoordinator<Checkout> saga(handlers, "checkout", *sagas, &outbox);
saga.keeps_timeouts_in(&Checkout::timeouts)
    .starts<CheckoutStarted>("checkout-started", by_order,
        [&clock](Checkout& s, const CheckoutStarted& e, docket::SagaStepContext& step) {
          s.order = e.order;
          step.schedule_timeout("payment-due", PaymentDue{e.order}, clock.now() + 30min);
        })
    .continues<PaymentReceived>("payment-received", by_order,
        [](Checkout& s, const PaymentReceived&, docket::SagaStepContext& step) {
          s.paid = true;
          step.complete();            // drops (and withdraws) every pending timeout
        })
    .times_out<PaymentDue>("payment-due", by_order,
        [](Checkout& s, const PaymentDue&, docket::SagaStepContext& step) {
          step.send("cancel-order", CancelOrder{s.order});
          step.complete();
        });
  // clang-format on
}

}  // namespace docs_eventsourcing_timeouts

namespace docs_eventsourcing_in_handler {

struct Deposit {
  std::string account;
  std::int64_t cents = 0;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Deposit, account, cents)
std::string encode(const Deposit& deposit);

void run(docket::HandlerRegistry& handlers, docket::EventStore* events) {
  // clang-format off
handlers.on<Deposit>("deposit", [&](const Deposit& d, docket::sqlite::Transaction& tx,
                                   docket::HandlerContext& ctx) {
  const docket::StreamId stream(ctx.tenant(), "account", d.account);
  // any(), or exactly(n) for a decision taken on state loaded at version n
  events->append(tx, stream, docket::ExpectedVersion::any(),
                 {docket::NewEvent{.type = "deposited", .payload = encode(d)}})
      .value_or_throw();  // or handle the conflict value
});
  // clang-format on
}

}  // namespace docs_eventsourcing_in_handler

namespace docs_eventsourcing_memory {

void run(const docket::Clock& clock) {
  // clang-format off
const docket::memory::Database db = docket::memory::open_database(clock);
auto inbox = docket::memory::open_store(db);
auto events = docket::memory::open_event_store(db);
auto sagas = docket::memory::open_saga_store(db);
auto outbox = docket::memory::open_outbox_store(db);
  // clang-format on
}

}  // namespace docs_eventsourcing_memory

namespace docs_eventsourcing_projection {

struct Deposited {
  std::int64_t cents = 0;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Deposited, cents)

void run(docket::InboxStore* inbox, docket::EventStore* events) {
  // clang-format off
docket::HandlerRegistry handlers;
handlers.on<Deposited>("deposited", [](const Deposited& d, docket::sqlite::Transaction& tx,
                                       docket::HandlerContext& ctx) {
  const docket::RecordedEvent& e = docket::EventFeedConsumer::current_event(ctx);
  tx.exec(
      "INSERT INTO balances (tenant, account, cents) VALUES (?1, ?2, ?3) ON CONFLICT "
      "(tenant, account) DO UPDATE SET cents = cents + excluded.cents",
      {ctx.tenant().value(), e.stream.aggregate_id(), std::int64_t{d.cents}});
});
const docket::InboxDispatcher projection(*inbox, docket::InboxOptions("balances"),
                                         std::move(handlers));
docket::EventFeedConsumer consumer(*events, projection, {.batch_size = 100});
std::jthread worker([&](std::stop_token stop) { consumer.run(stop); });  // or run_once()
                                                                           // clang-format on
}

}  // namespace docs_eventsourcing_projection

namespace docs_eventsourcing_urls {

void run() {
  // clang-format off
auto inbox = docket::open_inbox_store("sqlite:///var/lib/app/app.db");
auto events = docket::open_event_store("sqlite:///var/lib/app/app.db");  // same file
auto sagas = docket::open_saga_store("postgresql://app@db:5432/app");
  // clang-format on
}

}  // namespace docs_eventsourcing_urls
