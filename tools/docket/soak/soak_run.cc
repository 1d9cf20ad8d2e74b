#include "soak_run.h"

#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <thread>

#include "docket/core/uuid.h"
#include "docket/inbox/inbox_schema.h"
#include "docket/outbox/outbox.h"
#include "docket/outbox/outbox_schema.h"
#include "docket/outbox/relay.h"
#include "docket/stores/open_store.h"
#include "docket/transports/in_process_transport.h"
#include "pipeline_threads.h"
#include "services.h"
#include "services_for_store.h"

namespace docket::tool {
namespace {

using Clock = std::chrono::steady_clock;

constexpr std::size_t kTransportCapacity = 1024;
constexpr std::chrono::minutes kDrainLimit{5};

// VmRSS of this process, in KiB.
std::int64_t resident_kib() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.starts_with("VmRSS:")) {
      return std::stoll(line.substr(6));
    }
  }
  return 0;
}

std::int64_t open_descriptors() {
  std::int64_t count = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator("/proc/self/fd")) {
    ++count;
  }
  return count - 1;  // the iterator's own
}

}  // namespace

SoakReport run_soak(const SoakOptions& options, const std::function<void()>& on_started,
                    const std::function<void(const SoakSample&)>& on_sample) {
  const auto started = Clock::now();
  const auto orders_db = open_outbox_store(options.store_url);
  const auto billing_db = open_inbox_store(options.store_url);
  const auto services = examples::services_for_store(options.store_url);
  services->create_tables();
  // A read before any thread starts: a document store's set-up sends nothing, so a
  // server that is not there is found here, not by the producer's first order.
  examples::count_invoices(*services, "soak-probe");
  if (on_started) {
    on_started();
  }
  const Outbox outbox(*orders_db);
  const std::string run = "soak" + Uuid::v4().to_string().substr(0, 8);
  InProcessTransport transport(kTransportCapacity);
  Relay relay(*orders_db, transport,
              RelayOptions({.poll_interval = std::chrono::milliseconds(10),
                            .batch_size = 100,
                            .max_attempts = 50,
                            .backoff_base = std::chrono::milliseconds(10),
                            .backoff_cap = std::chrono::seconds(1)}));
  std::atomic<std::uint64_t> placed = 0;
  std::atomic<std::uint64_t> purged_outbox = 0;
  std::atomic<std::uint64_t> purged_inbox = 0;
  examples::BillingCounters billing;
  examples::ThreadFailure failure;
  SoakReport report;
  const double rate = static_cast<double>(options.orders_per_second);
  const double window =
      std::chrono::duration<double>(options.retention + 2 * options.retention_interval).count();
  report.table_bound = static_cast<std::int64_t>(rate * window * 1.5) + 1000;
  {
    std::jthread producer(failure.guard([&](std::stop_token stop) {
      const auto period =
          std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(1.0 / rate));
      auto next = Clock::now();
      while (!stop.stop_requested()) {
        examples::place_order(*orders_db, outbox, *services, examples::order_of(run, ++placed));
        next += period;
        examples::wait_until(next, stop);
      }
    }));
    std::jthread relaying(failure.guard([&](std::stop_token stop) { relay.run(stop); }));
    std::jthread consumer(failure.guard([&](std::stop_token stop) {
      examples::consume_orders(*billing_db, transport, *services, run, billing, stop);
    }));
    std::jthread retention(failure.guard([&](std::stop_token stop) {
      while (!stop.stop_requested()) {
        examples::wait_until(Clock::now() + options.retention_interval, stop);
        const Timestamp cutoff = SystemClock::instance().now() - options.retention;
        purged_outbox += outbox.purge_done_before(cutoff);
        purged_inbox += billing_db->purge_processed_before(cutoff);
      }
    }));
    struct CloseOnExit {
      InProcessTransport& transport;
      ~CloseOnExit() { transport.close(); }
    } close_on_exit{transport};

    const auto end = started + options.duration;
    for (auto next = started + options.sample_every; next <= end; next += options.sample_every) {
      while (Clock::now() < next) {
        failure.rethrow_if_any();
        std::this_thread::sleep_for(
            std::min<Clock::duration>(next - Clock::now(), std::chrono::milliseconds(100)));
      }
      SoakSample sample{.seconds = std::chrono::duration<double>(Clock::now() - started).count(),
                        .placed = placed.load(),
                        .invoiced = billing.processed.load(),
                        .rss_kib = resident_kib(),
                        .open_fds = open_descriptors(),
                        .outbox_rows = examples::table_rows(*billing_db, kOutboxTable),
                        .inbox_rows = examples::table_rows(*billing_db, kInboxMessagesTable),
                        .purged_outbox = purged_outbox.load(),
                        .purged_inbox = purged_inbox.load()};
      report.samples.push_back(sample);
      if (on_sample) {
        on_sample(sample);
      }
    }
    producer.request_stop();
    producer.join();
    // Drained when the store holds an invoice of every order placed, whichever consumer
    // wrote it (another relay on the same outbox may have published some elsewhere).
    const auto drain_end = Clock::now() + kDrainLimit;
    const auto invoiced_orders = [&] {
      const examples::InvoiceCount counted = examples::count_invoices(*services, run);
      return static_cast<std::uint64_t>(counted.invoices - counted.duplicates);
    };
    while (invoiced_orders() < placed.load() && Clock::now() < drain_end) {
      failure.rethrow_if_any();
      std::this_thread::sleep_for(std::chrono::milliseconds(250));
    }
  }  // stop requested, threads joined
  failure.rethrow_if_any();

  const examples::InvoiceCount counted = examples::count_invoices(*services, run);
  report.orders = static_cast<std::int64_t>(placed.load());
  report.invoices = counted.invoices;
  report.doubled = counted.duplicates;
  const auto& samples = report.samples;
  if (samples.size() >= 2) {
    const SoakSample& baseline = samples[std::max<std::size_t>(1, samples.size() / 4)];
    report.memory_flat =
        samples.back().rss_kib <= baseline.rss_kib + baseline.rss_kib / 10 + 8 * 1024;
  }
  report.tables_bounded = true;
  const double settled = std::chrono::duration<double>(options.retention).count();
  for (const SoakSample& sample : samples) {
    if (sample.seconds < settled) {
      continue;
    }
    for (const auto& rows : {sample.outbox_rows, sample.inbox_rows}) {
      report.tables_bounded = report.tables_bounded && rows.value_or(0) <= report.table_bound;
    }
  }
  return report;
}

}  // namespace docket::tool
