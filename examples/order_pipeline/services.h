// The two services of the order pipeline, written once over the store's own tables
// (order_services.h).
//
// Thread-safety: place_orders() and consume_orders() each run on their own thread;
// the other functions may be called from any thread.
#ifndef DOCKET_EXAMPLES_ORDER_PIPELINE_SERVICES_H_
#define DOCKET_EXAMPLES_ORDER_PIPELINE_SERVICES_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <stop_token>
#include <string>
#include <string_view>

#include "docket/inbox/inbox_dispatcher.h"
#include "docket/inbox/inbox_store.h"
#include "docket/outbox/outbox.h"
#include "docket/transports/in_process_transport.h"
#include "order_services.h"

namespace docket::examples {

// Order `n` of `run`: id "<run>-<n>", so that runs on one database keep apart.
OrderPlaced order_of(std::string_view run, std::size_t n);

// orders: places `order` in one unit of work with its OrderPlaced message, whose
// correlation id is the order id, routed to `destination` (empty: the default route, the
// event type), so that a run across a broker can keep its messages to a destination of
// its own.
void place_order(OutboxStore& store, const Outbox& outbox, const OrderServices& services,
                 const OrderPlaced& order, std::string_view destination = {});

// place_order() for orders 1 to `count` of `run`; counts them in `placed`.
void place_orders(OutboxStore& store, const Outbox& outbox, const OrderServices& services,
                  const std::string& run, std::size_t count, std::atomic<std::size_t>& placed);

// billing's consumer id, the inbox's name for its dedup records.
inline constexpr std::string_view kBillingConsumer = "billing";

// What billing's handler does beside writing the invoice, in the same transaction.
using BillingExtra = std::function<void(HandlerTransaction& tx, const OrderPlaced& order)>;

// billing's dispatcher over `store`: one invoice per OrderPlaced processed, written
// through the inbox's unit of work, and `extra` when given. `store`, `services` and
// what `extra` refers to must outlive it.
InboxDispatcher billing_dispatcher(InboxStore& store, const OrderServices& services,
                                   BillingExtra extra = {});

// Whether `order_id` is of an order of `run`: "<run>-<n>".
bool is_order_of_run(std::string_view order_id, std::string_view run);
// Whether `envelope` is of an order of `run`: its correlation id is the order id.
bool is_of_run(const Envelope& envelope, std::string_view run);

// billing: an inbox consumer writing one invoice per OrderPlaced processed. A run's
// messages are told apart by their correlation id, the order id "<run>-<n>".
struct BillingCounters {
  std::atomic<std::uint64_t> processed = 0;               // this run's orders
  std::atomic<std::uint64_t> earlier_runs_processed = 0;  // orders other runs left
  std::atomic<std::uint64_t> skipped_duplicates = 0;      // of any run
  std::atomic<std::uint64_t> redeliveries = 0;  // across a broker: deliveries flagged redelivered
};

// Receives, dispatches through the inbox and acknowledges until `stop`. When
// `crash_after` deliveries were processed, it processes one more and returns without
// acknowledging it, the way a process dies between commit and ack.
void consume_orders(InboxStore& store, InProcessTransport& transport, const OrderServices& services,
                    const std::string& run, BillingCounters& counters, std::stop_token stop,
                    std::uint64_t crash_after = UINT64_MAX);

// consume_orders() from a broker: a ConsumerRunner reading `destination` as the consumer
// group "billing" through billing's inbox. When `crash_after` deliveries were
// committed, it commits one more and returns without acknowledging it; closing its
// subscription then hands it back to the broker, which redelivers it.
void consume_orders_from_broker(InboxStore& store, Transport& transport,
                                std::string_view destination, const OrderServices& services,
                                const std::string& run, BillingCounters& counters,
                                std::stop_token stop, std::uint64_t crash_after = UINT64_MAX);

}  // namespace docket::examples

#endif  // DOCKET_EXAMPLES_ORDER_PIPELINE_SERVICES_H_
