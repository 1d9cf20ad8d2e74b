#include "services.h"

#include <nlohmann/json.hpp>
#include <string>

#include "docket/inbox/handler_registry.h"
#include "docket/inbox/inbox_dispatcher.h"
#include "docket/transports/consumer_runner.h"
#include "docket/transports/transport.h"

namespace docket::examples {

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(OrderPlaced, order_id, amount_cents)

bool is_order_of_run(std::string_view order_id, std::string_view run) {
  return order_id.size() > run.size() && order_id.starts_with(run) && order_id[run.size()] == '-';
}

bool is_of_run(const Envelope& envelope, std::string_view run) {
  return envelope.correlation_id && is_order_of_run(*envelope.correlation_id, run);
}

OrderPlaced order_of(std::string_view run, std::size_t n) {
  return {std::string(run) + "-" + std::to_string(n), static_cast<std::int64_t>(n * 250)};
}

void place_order(OutboxStore& store, const Outbox& outbox, const OrderServices& services,
                 const OrderPlaced& order, std::string_view destination) {
  auto unit = store.begin();
  HandlerTransaction& tx = unit->handler_transaction();
  services.write_order(tx, order);
  outbox.stage(tx, {.event_type = "OrderPlaced",
                    .payload = JsonCodec<OrderPlaced>().encode(order),
                    .source = "orders",
                    .correlation_id = order.order_id,
                    .destination = std::string(destination)});
  unit->commit();  // the order and its message, together
}

void place_orders(OutboxStore& store, const Outbox& outbox, const OrderServices& services,
                  const std::string& run, std::size_t count, std::atomic<std::size_t>& placed) {
  for (std::size_t i = 1; i <= count; ++i) {
    place_order(store, outbox, services, order_of(run, i));
    ++placed;
  }
}

InboxDispatcher billing_dispatcher(InboxStore& store, const OrderServices& services,
                                   BillingExtra extra) {
  HandlerRegistry handlers;
  handlers.on<OrderPlaced>("OrderPlaced", [&services, extra = std::move(extra)](
                                              const OrderPlaced& order, HandlerContext& ctx) {
    // Written through the inbox's transaction: it commits with the dedup record, or
    // not at all.
    services.write_invoice(ctx.transaction(), order);
    if (extra) {
      extra(ctx.transaction(), order);
    }
  });
  return InboxDispatcher(store, InboxOptions(std::string(kBillingConsumer)), std::move(handlers));
}

void consume_orders(InboxStore& store, InProcessTransport& transport, const OrderServices& services,
                    const std::string& run, BillingCounters& counters, std::stop_token stop,
                    std::uint64_t crash_after) {
  const InboxDispatcher billing = billing_dispatcher(store, services);
  std::uint64_t handled = 0;
  // Returning closes the subscription: what it holds unacknowledged is redelivered, as
  // a broker does when a consumer's connection drops.
  auto subscription = transport.subscribe({.prefetch = 1});
  while (!stop.stop_requested()) {
    auto delivery = subscription.next(std::chrono::milliseconds(20));
    if (!delivery) {
      continue;
    }
    const DispatchOutcome outcome = dispatch_message(billing, delivery->message);
    if (outcome != DispatchOutcome::kProcessed) {
      ++counters.skipped_duplicates;
    } else if (is_of_run(delivery->message.envelope, run)) {
      ++counters.processed;
    } else {
      ++counters.earlier_runs_processed;
    }
    if (++handled > crash_after) {
      return;  // "crash": committed, never acknowledged; the transport will redeliver
    }
    subscription.acknowledge(delivery->tag);
  }
}

namespace {

// Thrown by the runner's commit hook to "crash" billing between commit and acknowledgement.
struct BillingCrash {};

}  // namespace

void consume_orders_from_broker(InboxStore& store, Transport& transport,
                                std::string_view destination, const OrderServices& services,
                                const std::string& run, BillingCounters& counters,
                                std::stop_token stop, std::uint64_t crash_after) {
  const InboxDispatcher billing = billing_dispatcher(store, services);
  std::uint64_t handled = 0;
  ConsumerRunner runner(
      transport, billing,
      ConsumerRunnerOptions(
          {.destination = std::string(destination), .group = std::string(kBillingConsumer)},
          {.retry_base = std::chrono::milliseconds(10),
           .retry_cap = std::chrono::milliseconds(200),
           .poll = std::chrono::milliseconds(20),
           .on_committed = [&](const Delivery& delivery, DispatchOutcome outcome) {
             if (delivery.redelivered) {
               ++counters.redeliveries;
             }
             if (outcome != DispatchOutcome::kProcessed) {
               ++counters.skipped_duplicates;
             } else if (is_of_run(delivery.message.envelope, run)) {
               ++counters.processed;
             } else {
               ++counters.earlier_runs_processed;
             }
             if (++handled > crash_after) {
               throw BillingCrash{};  // committed, never acknowledged
             }
           }}));
  try {
    runner.run(stop);
  } catch (const BillingCrash&) {
    // The runner stopped as a crashed process would; destroying it closes its
    // subscription, and the broker redelivers what it held.
  }
}

}  // namespace docket::examples
