// The order pipeline across a broker (order_pipeline.h): the same orders and billing
// services, the outbox relayed to the broker of options.transport_url and billing
// consuming it there, crashing midway between commit and acknowledgement.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <thread>

#include "docket/core/uuid.h"
#include "docket/outbox/relay.h"
#include "docket/stores/open_store.h"
#include "docket/transports/open_transport.h"
#include "order_pipeline.h"
#include "pipeline_threads.h"
#include "services.h"
#include "services_for_store.h"

namespace docket::examples {

std::string demo_destination(std::string_view store_url) {
  std::uint64_t hash = 0xcbf29ce484222325ULL;  // FNV-1a, 64 bits: the same on every build
  for (const char c : store_url) {
    hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
  return "docket-demo." + std::string(hex, 8) + ".orders";
}

PipelineReport run_order_pipeline_across_broker(
    const PipelineOptions& options, const std::function<void(const PipelineProgress&)>& progress) {
  const auto started = std::chrono::steady_clock::now();
  const std::unique_ptr<Transport> transport = open_transport(options.transport_url);
  const std::string destination = demo_destination(options.store_url);
  auto orders_db = open_outbox_store(options.store_url);
  auto billing_db = open_inbox_store(options.store_url);
  const std::unique_ptr<OrderServices> services = services_for_store(options.store_url);
  services->create_tables();
  // Billing's queue before the first order: a broker keeps for a consumer group only
  // what was published once its queue existed.
  transport->subscribe({.destination = destination, .group = std::string(kBillingConsumer)})
      .close();

  const Outbox outbox(*orders_db);
  const std::string run = "run" + Uuid::v4().to_string().substr(0, 8);
  Relay relay(*orders_db, *transport,
              RelayOptions({.poll_interval = std::chrono::milliseconds(5),
                            .batch_size = 100,
                            .max_attempts = 50,
                            .backoff_base = std::chrono::milliseconds(5),
                            .backoff_cap = std::chrono::milliseconds(500)}));
  std::atomic<std::size_t> placed = 0;
  BillingCounters billing;
  const bool crash = options.faults != FaultLevel::kNone && options.orders >= 2;
  std::atomic<bool> billing_down = false;
  PipelineReport report{.orders = options.orders};
  ThreadFailure failure;
  {
    std::jthread orders(failure.guard([&](std::stop_token) {
      for (std::size_t n = 1; n <= options.orders; ++n) {
        place_order(*orders_db, outbox, *services, order_of(run, n), destination);
        ++placed;
      }
    }));
    std::jthread relaying(failure.guard([&](std::stop_token stop) { relay.run(stop); }));
    const auto consume = [&](InboxStore& store, std::stop_token stop, std::uint64_t crash_after) {
      consume_orders_from_broker(store, *transport, destination, *services, run, billing, stop,
                                 crash_after);
    };
    std::jthread consumer(failure.guard([&](std::stop_token stop) {
      consume(*billing_db, stop, crash ? options.orders / 2 : UINT64_MAX);
      billing_down = true;
    }));
    // Over once each of the run's orders was invoiced; what the broker still holds then
    // is copies billing's inbox absorbs, which the next run's billing meets first.
    for (;;) {
      failure.rethrow_if_any();
      if (billing_down.exchange(false) && report.consumer_restarts == 0 && crash) {
        consumer.join();
        ++report.consumer_restarts;
        consumer = std::jthread(failure.guard([&](std::stop_token stop) {
          auto restarted = open_inbox_store(options.store_url);  // a fresh process's store
          consume(*restarted, stop, UINT64_MAX);
        }));
      }
      const PipelineProgress now{options.orders, placed.load(), relay.stats().published,
                                 billing.processed.load()};
      if (progress) {
        progress(now);
      }
      if (now.placed == options.orders && now.processed == options.orders) {
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }  // stop requested, threads joined

  const InvoiceCount counted = count_invoices(*services, run);
  report.published = relay.stats().published;
  report.publish_retries = relay.stats().retried;
  report.deliveries =
      billing.processed + billing.earlier_runs_processed + billing.skipped_duplicates;
  report.redeliveries = billing.redeliveries;
  report.duplicates = billing.skipped_duplicates;
  report.processed = billing.processed;
  report.earlier_runs_processed = billing.earlier_runs_processed;
  report.skipped_duplicates = billing.skipped_duplicates;
  report.invoices = counted.invoices;
  report.duplicates_found = counted.duplicates;
  report.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return report;
}

}  // namespace docket::examples
