#include "order_pipeline.h"

#include <chrono>
#include <exception>
#include <mutex>
#include <thread>

#include "docket/core/uuid.h"
#include "docket/outbox/relay.h"
#include "docket/stores/open_store.h"
#include "pipeline_threads.h"
#include "services.h"
#include "services_for_store.h"

namespace docket::examples {

std::optional<FaultLevel> parse_fault_level(std::string_view text) {
  if (text == "none")
    return FaultLevel::kNone;
  if (text == "some")
    return FaultLevel::kSome;
  if (text == "heavy")
    return FaultLevel::kHeavy;
  return std::nullopt;
}

TransportFaults faults_for(FaultLevel level, std::uint64_t seed) {
  switch (level) {
    case FaultLevel::kNone:
      return {.seed = seed};
    case FaultLevel::kSome:
      return {.drop_ack = 0.05,
              .duplicate = 0.05,
              .delay = 0.05,
              .reorder = 0.05,
              .publish_failure = 0.02,
              .seed = seed};
    case FaultLevel::kHeavy:
      break;
  }
  return {.drop_ack = 0.25,
          .duplicate = 0.25,
          .delay = 0.2,
          .reorder = 0.2,
          .publish_failure = 0.1,
          .seed = seed};
}

PipelineReport run_order_pipeline(const PipelineOptions& options,
                                  const std::function<void(const PipelineProgress&)>& progress) {
  if (!options.transport_url.empty()) {
    return run_order_pipeline_across_broker(options, progress);
  }
  const auto started = std::chrono::steady_clock::now();
  auto orders_db = open_outbox_store(options.store_url);  // the orders service's database
  auto billing_db = open_inbox_store(options.store_url);  // billing's (here the same file)
  const std::unique_ptr<OrderServices> services = services_for_store(options.store_url);
  services->create_tables();

  const Outbox outbox(*orders_db);
  const std::string run = "run" + Uuid::v4().to_string().substr(0, 8);
  InProcessTransport transport(256, faults_for(options.faults, options.seed));
  Relay relay(*orders_db, transport,
              RelayOptions({.poll_interval = std::chrono::milliseconds(5),
                            .batch_size = 100,
                            .max_attempts = 50,
                            .backoff_base = std::chrono::milliseconds(1),
                            .backoff_cap = std::chrono::milliseconds(50)}));
  std::atomic<std::size_t> placed = 0;
  BillingCounters billing;
  const bool crash = options.faults != FaultLevel::kNone && options.orders >= 2;
  std::atomic<bool> billing_down = false;
  PipelineReport report{.orders = options.orders};
  ThreadFailure failure;
  {
    // Closes the transport before the threads are joined, so that none stays blocked
    // on it when the pipeline ends early (a failure).
    struct CloseOnExit {
      InProcessTransport& transport;
      ~CloseOnExit() { transport.close(); }
    };
    std::jthread orders(failure.guard([&](std::stop_token) {
      place_orders(*orders_db, outbox, *services, run, options.orders, placed);
    }));
    std::jthread relaying(failure.guard([&](std::stop_token stop) { relay.run(stop); }));
    // Billing dies midway, after processing half the orders, between commit and ack.
    std::jthread consumer(failure.guard([&](std::stop_token stop) {
      consume_orders(*billing_db, transport, *services, run, billing, stop,
                     crash ? options.orders / 2 : UINT64_MAX);
      billing_down = true;
    }));
    CloseOnExit close_on_exit{transport};
    // The run is over once each of its own orders was invoiced and every delivery
    // acknowledged. Messages an earlier run on the store left in the outbox (it was
    // killed) are relayed and invoiced too, but not waited for: their number is unknown
    // and some may stay leased to the dead relay for a while. The relay stops first, so
    // that what it published last is still delivered before billing stops.
    bool relay_stopped = false;
    for (;;) {
      failure.rethrow_if_any();
      if (billing_down.exchange(false) && report.consumer_restarts == 0 && crash) {
        consumer.join();  // its subscription closed: what it held is redelivered
        ++report.consumer_restarts;
        consumer = std::jthread(failure.guard([&](std::stop_token stop) {
          auto restarted = open_inbox_store(options.store_url);  // a fresh process's store
          consume_orders(*restarted, transport, *services, run, billing, stop);
        }));
      }
      const PipelineProgress now{options.orders, placed.load(), relay.stats().published,
                                 billing.processed.load()};
      if (progress) {
        progress(now);
      }
      if (now.placed == options.orders && now.processed == options.orders && transport.idle()) {
        if (relay_stopped) {
          break;  // everything published delivered and acknowledged
        }
        relaying.request_stop();
        relaying.join();
        relay_stopped = true;
        continue;  // what the relay published meanwhile is delivered before the end
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }  // stop requested, threads joined

  const TransportStats stats = transport.stats();
  const InvoiceCount counted = count_invoices(*services, run);
  report.published = relay.stats().published;
  report.publish_retries = relay.stats().retried;
  report.deliveries = stats.deliveries;
  report.redeliveries = stats.redeliveries;
  report.duplicates = stats.duplicates;
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
