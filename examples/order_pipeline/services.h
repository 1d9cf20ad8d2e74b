// The two services of the order pipeline, written once over the store's own tables
// (order_services.h).
//
// Thread-safety: place_orders() and consume_orders() each run on their own thread.
#ifndef DOCKET_EXAMPLES_ORDER_PIPELINE_SERVICES_H_
#define DOCKET_EXAMPLES_ORDER_PIPELINE_SERVICES_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <stop_token>
#include <string>

#include "docket/in_process_transport.h"
#include "docket/inbox_store.h"
#include "docket/outbox.h"
#include "order_services.h"

namespace docket::examples {

// orders: places `count` orders, each in its own unit of work with its OrderPlaced
// message; counts them in `placed`. Order ids are "<run>-<n>", so that runs on one
// database keep apart.
void place_orders(OutboxStore& store, const Outbox& outbox, const OrderServices& services,
                  const std::string& run, std::size_t count, std::atomic<std::size_t>& placed);

// billing: an inbox consumer writing one invoice per OrderPlaced processed. A run's
// messages are told apart by their correlation id, the order id "<run>-<n>".
struct BillingCounters {
  std::atomic<std::uint64_t> processed = 0;               // this run's orders
  std::atomic<std::uint64_t> earlier_runs_processed = 0;  // orders other runs left
  std::atomic<std::uint64_t> skipped_duplicates = 0;      // of any run
};

// Receives, dispatches through the inbox and acknowledges until `stop`. When
// `crash_after` deliveries were processed, it processes one more and returns without
// acknowledging it, the way a process dies between commit and ack.
void consume_orders(InboxStore& store, InProcessTransport& transport, const OrderServices& services,
                    const std::string& run, BillingCounters& counters, std::stop_token stop,
                    std::uint64_t crash_after = UINT64_MAX);

}  // namespace docket::examples

#endif  // DOCKET_EXAMPLES_ORDER_PIPELINE_SERVICES_H_
