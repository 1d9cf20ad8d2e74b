// The order pipeline that `docket demo` runs, written as an example of the whole
// promise: an "orders" service stages OrderPlaced in the same transaction as its order
// row; a relay publishes the outbox through an in-process transport that loses
// acknowledgements, duplicates, delays and reorders messages; a "billing" service
// handles them through its inbox into its own invoices table, and crashes and restarts
// midway. At the end, invoices == orders and no order is invoiced twice.
//
// Across a broker (options.transport_url, docket/transports/open_transport.h), the relay
// publishes to the broker instead, on the destination demo_destination(store), and billing
// consumes it there as the consumer group "billing" through a ConsumerRunner; the faults
// are the broker's own (redeliveries, a connection lost) and billing's crash midway,
// between commit and acknowledgement (any level but none).
//
// Thread-safety: run_order_pipeline() runs its own threads; call it from one thread.
#ifndef DOCKET_EXAMPLES_ORDER_PIPELINE_ORDER_PIPELINE_H_
#define DOCKET_EXAMPLES_ORDER_PIPELINE_ORDER_PIPELINE_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "docket/transports/in_process_transport.h"

namespace docket::examples {

enum class FaultLevel { kNone, kSome, kHeavy };

// "none", "some", "heavy" -> the level; anything else -> nullopt.
std::optional<FaultLevel> parse_fault_level(std::string_view text);

// The transport faults of a level, seeded.
TransportFaults faults_for(FaultLevel level, std::uint64_t seed);

struct PipelineOptions {
  std::size_t orders = 1000;
  // A store URL (docket/stores/open_store.h) of a provider the services run on
  // (services_for_store.h): sqlite:, postgresql:, or another provider's with order services.
  std::string store_url;
  FaultLevel faults = FaultLevel::kSome;
  std::uint64_t seed = 1;
  // A broker's URL; empty: the in-process transport with the faults above.
  std::string transport_url{};
};

// Where the demo's orders go across a broker: "docket-demo.<store>.orders", <store> the
// FNV-1a hash of the store URL in hex. One destination for every run on a store, so that
// a broker keeps one queue for it and what a killed run left there is invoiced by the
// next (counted as an earlier run's); and one for each store, so that demos on two
// stores sharing a broker never take each other's orders (billing would invoice them in
// the wrong database, and the run whose orders they were would wait for them for ever).
std::string demo_destination(std::string_view store_url);

// A snapshot of the counters, for a progress display.
struct PipelineProgress {
  std::size_t total = 0;
  std::size_t placed = 0;
  std::size_t published = 0;
  std::size_t processed = 0;
};

struct PipelineReport {
  std::size_t orders = 0;                    // placed: order row + OrderPlaced in one transaction
  std::uint64_t published = 0;               // outbox rows the relay published and marked done
                                             // (an earlier run's left over among them)
  std::uint64_t publish_retries = 0;         // publishes that failed and were retried with backoff
  std::uint64_t deliveries = 0;              // deliveries billing received
  std::uint64_t redeliveries = 0;            // ... of which redeliveries (lost ack, crash)
  std::uint64_t duplicates = 0;              // ... of which duplicate copies
  std::uint64_t processed = 0;               // dispatches of this run's orders that ran the handler
  std::uint64_t earlier_runs_processed = 0;  // ... of orders an earlier, killed run left
  std::uint64_t skipped_duplicates = 0;      // dispatches the inbox collapsed (of any run)
  int consumer_restarts = 0;
  std::int64_t invoices = 0;          // rows in billing's invoices table
  std::int64_t duplicates_found = 0;  // orders invoiced more than once
  double seconds = 0;

  bool ok() const noexcept {
    return invoices == static_cast<std::int64_t>(orders) && duplicates_found == 0;
  }
};

// Runs the pipeline to the end, calling `progress` (when set) from the calling thread
// about ten times a second. Throws ConfigurationError for a store URL the services
// cannot run on (services_for_store.h) or a transport URL no transport of this build
// opens, and what the stores and the transport throw.
PipelineReport run_order_pipeline(
    const PipelineOptions& options,
    const std::function<void(const PipelineProgress&)>& progress = {});

// run_order_pipeline() across the broker of options.transport_url (broker_pipeline.cc).
PipelineReport run_order_pipeline_across_broker(
    const PipelineOptions& options, const std::function<void(const PipelineProgress&)>& progress);

}  // namespace docket::examples

#endif  // DOCKET_EXAMPLES_ORDER_PIPELINE_ORDER_PIPELINE_H_
