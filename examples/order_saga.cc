// An order-fulfilment saga on SQLite: started by "order-placed", continued by
// "payment-captured" and "order-shipped", complete once paid and shipped. Each step
// runs inside the inbox's unit of work, so the saga's new state, the messages it sends
// through the outbox and the message's dedup row commit together; a redelivered
// message is skipped before any step runs.
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "docket/inbox/inbox_dispatcher.h"
#include "docket/outbox/outbox.h"
#include "docket/sagas/saga_coordinator.h"
#include "docket/sqlite/saga_store.h"
#include "docket/sqlite/store.h"

// The messages and the saga's state, with their JSON conversions.
namespace shop {

struct OrderPlaced {
  std::string order;
  int cents = 0;
};
struct PaymentCaptured {
  std::string order;
};
struct OrderShipped {
  std::string order;
};
struct ShipOrder {
  std::string order;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(OrderPlaced, order, cents)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(PaymentCaptured, order)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(OrderShipped, order)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(ShipOrder, order)

// The saga's state, stored as JSON (the default codec) in docket_sagas.
struct Fulfilment {
  std::string order;
  int cents = 0;
  bool paid = false;
  bool shipped = false;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Fulfilment, order, cents, paid, shipped)

}  // namespace shop

namespace {

using shop::Fulfilment;
using shop::OrderPlaced;
using shop::OrderShipped;
using shop::PaymentCaptured;
using shop::ShipOrder;

std::string by_order(const auto& event, const docket::HandlerContext&) {
  return event.order;
}

void complete_when_done(const Fulfilment& s, docket::SagaStepContext& step) {
  if (s.paid && s.shipped) {
    step.complete();
  }
}

docket::HandlerRegistry fulfilment_handlers(docket::SagaStore& sagas,
                                            const docket::Outbox& outbox) {
  docket::HandlerRegistry handlers;
  docket::SagaCoordinator<Fulfilment>(handlers, "order-fulfilment", sagas, &outbox)
      .starts<OrderPlaced>("order-placed", by_order<OrderPlaced>,
                           [](Fulfilment& s, const OrderPlaced& e, docket::SagaStepContext& step) {
                             s.order = e.order;
                             s.cents = e.cents;
                             step.send("capture-payment", e);  // commits with the new state
                           })
      .continues<PaymentCaptured>(
          "payment-captured", by_order<PaymentCaptured>,
          [](Fulfilment& s, const PaymentCaptured&, docket::SagaStepContext& step) {
            s.paid = true;
            step.send("ship-order", ShipOrder{s.order});
            complete_when_done(s, step);
          })
      .continues<OrderShipped>(
          "order-shipped", by_order<OrderShipped>,
          [](Fulfilment& s, const OrderShipped&, docket::SagaStepContext& step) {
            s.shipped = true;
            complete_when_done(s, step);
          });
  return handlers;
}

template <class Event>
docket::Envelope message(std::string id, std::string type, const Event& event) {
  return {.message_id = std::move(id),
          .event_type = std::move(type),
          .payload = nlohmann::json(event).dump()};
}

// Delivers the saga's messages (one twice) to an inbox on the database at `path`;
// true when the saga completed with exactly its two messages sent.
bool run(const std::string& path) {
  // One database file for the inbox, the outbox and the sagas: one transaction spans them.
  const docket::sqlite::StoreOptions options{.path = path};
  auto inbox_store = docket::sqlite::open_store(options);
  auto outbox_store = docket::sqlite::open_outbox_store(options);
  auto sagas = docket::sqlite::open_saga_store(options);
  const docket::Outbox outbox(*outbox_store);
  const docket::InboxDispatcher inbox(*inbox_store, docket::InboxOptions("fulfilment"),
                                      fulfilment_handlers(*sagas, outbox));

  const docket::TenantId acme("acme");
  const docket::TenantScope tenant(acme);
  for (const docket::Envelope& m :
       {message("m-1", "order-placed", OrderPlaced{"O-1001", 4200}),
        message("m-2", "payment-captured", PaymentCaptured{"O-1001"}),
        message("m-2", "payment-captured", PaymentCaptured{"O-1001"}),  // redelivered
        message("m-3", "order-shipped", OrderShipped{"O-1001"})}) {
    std::cout << m.message_id << ' ' << m.event_type << ": " << to_string(inbox.dispatch(m))
              << '\n';
  }

  const auto saga = sagas->load(docket::SagaId(acme, "order-fulfilment", "O-1001"));
  std::cout << "saga version " << saga->version << ", "
            << (saga->status == docket::SagaStatus::kCompleted ? "completed" : "active") << ": "
            << saga->state << '\n';
  const auto sent = outbox_store->read_feed(0, 10);
  for (const docket::OutboxRecord& r : sent) {
    std::cout << "outbox: " << r.event_type << ' ' << r.payload << '\n';
  }
  return saga->version == 2 && saga->status == docket::SagaStatus::kCompleted && sent.size() == 2;
}

}  // namespace

int main() {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("docket-order-saga-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const bool ok = run((dir / "app.db").string());
  std::filesystem::remove_all(dir);
  return ok ? 0 : 1;
}
