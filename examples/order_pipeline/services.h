// The two services of the order pipeline, each with its own table in the database.
//
// Thread-safety: place_orders() and Billing::consume() each run on their own thread.
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

namespace docket::examples {

struct OrderPlaced {
  std::string order_id;
  std::int64_t amount_cents = 0;
};

// orders: creates its table, then places `count` orders, each in its own transaction
// with its OrderPlaced message; counts them in `placed`.
void create_orders_table(OutboxStore& store);
// Order ids are "<run>-<n>", so that runs on one database keep apart.
void place_orders(OutboxStore& store, const Outbox& outbox, const std::string& run,
                  std::size_t count, std::atomic<std::size_t>& placed);

// billing: an inbox consumer writing one invoice per OrderPlaced. The invoices table
// deliberately has no unique constraint on order_id, so a message processed twice
// would show as a duplicate invoice.
struct BillingCounters {
  std::atomic<std::uint64_t> processed = 0;
  std::atomic<std::uint64_t> skipped_duplicates = 0;
};

void create_invoices_table(InboxStore& store);

// Receives, dispatches through the inbox and acknowledges until `stop`. When
// `crash_after` deliveries were processed, it processes one more and returns without
// acknowledging it, the way a process dies between commit and ack.
void consume_orders(InboxStore& store, InProcessTransport& transport, BillingCounters& counters,
                    std::stop_token stop, std::uint64_t crash_after = UINT64_MAX);

// Invoices of the run's orders, and how many of them repeat an order already invoiced.
struct InvoiceCount {
  std::int64_t invoices = 0;
  std::int64_t duplicates = 0;
};
InvoiceCount count_invoices(InboxStore& store, const std::string& run);

}  // namespace docket::examples

#endif  // DOCKET_EXAMPLES_ORDER_PIPELINE_SERVICES_H_
