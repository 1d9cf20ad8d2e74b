#include "latency_bench.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>
#include <stop_token>
#include <thread>
#include <utility>

#include "bench_registry.h"
#include "docket/core/error.h"
#include "docket/outbox/relay.h"
#include "docket/transports/in_process_transport.h"
#include "docket/transports/open_transport.h"
#include "latency_side.h"
#include "option_checks.h"
#include "run_queues.h"
#include "run_schemas.h"

namespace docket::bench {
namespace {

constexpr std::string_view kLatencyGroup = "bench";
// Messages the in-process transport holds before a relay waits: more than a round.
constexpr std::size_t kInProcessCapacity = 100'000;

void validate(const LatencyBenchOptions& o) {
  require_count("--messages", o.messages, LatencyBenchOptions::kMaxMessages);
  require_count("--rate", o.rate, LatencyBenchOptions::kMaxRate);
  require_count("--rounds", o.rounds, LatencyBenchOptions::kMaxRounds);
  require_option(o.rounds <= o.messages,
                 "--rounds is " + std::to_string(o.rounds) + ", more than --messages (" +
                     std::to_string(o.messages) + "); give every round at least one message");
  require_count("--idle-seconds", o.idle_seconds, LatencyBenchOptions::kMaxIdleSeconds);
}

// A mode's relay settings, as LatencyOptions takes them.
LatencyOptions mode_options(bool woken) {
  const RelaySettings defaults;
  const auto ms = [](std::chrono::microseconds us) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(us);
  };
  return LatencyOptions{.poll = ms(defaults.poll_interval),
                        .max_poll = ms(woken ? defaults.max_poll_interval : defaults.poll_interval),
                        .wake_ups = woken};
}

// Claims a second of a relay of `options`' settings running alone for `seconds`.
double idle_queries_per_second(OutboxStore& store, Transport& transport,
                               const LatencyOptions& options, std::size_t seconds) {
  RelaySettings settings;
  settings.poll_interval = options.poll;
  settings.max_poll_interval = options.max_poll;
  settings.wake_ups = options.wake_ups;
  Relay relay(store, transport, RelayOptions(settings));
  std::uint64_t claims = 0;
  {
    std::jthread relaying([&relay](std::stop_token stop) { relay.run(stop); });
    // The idle waits lengthen from poll to max_poll first: what an idle service costs
    // is counted once they have.
    std::this_thread::sleep_for(2 * options.max_poll + options.poll);
    const std::uint64_t before = relay.stats().claims;
    std::this_thread::sleep_for(std::chrono::seconds(seconds));
    claims = relay.stats().claims - before;
  }
  return static_cast<double>(claims) / static_cast<double>(seconds);
}

// docket's outbox and inbox stores on the run's docket side: the provider's outbox and
// inbox bench sides' where it has them (SQLite, PostgreSQL: pooled for the producer, relay
// and consumer threads), else its latency side's (the document stores); a provider with
// neither is refused, naming the benchmark.
struct LatencyStores {
  std::unique_ptr<OutboxStore> outbox;
  std::unique_ptr<InboxStore> inbox;
};

LatencyStores open_latency_stores(const BenchStore& store) {
  if (const LatencyBench* side = store.provider->latency()) {
    return {side->open_outbox_store(store.docket_db), side->open_inbox_store(store.docket_db)};
  }
  const OutboxBench& outbox_side = outbox_bench(store, "latency");
  const InboxBench& inbox_side = inbox_bench(store, "latency");
  return {outbox_side.open_docket_store(store.docket_db, 3),
          inbox_side.open_docket_store(store.docket_db, 2)};
}

void merge(LatencyReport& into, LatencyReport round) {
  into.staged += round.staged;
  into.latencies_ms.insert(into.latencies_ms.end(), round.latencies_ms.begin(),
                           round.latencies_ms.end());
}

}  // namespace

LatencyBenchReport run_latency_bench(LatencyBenchOptions options) {
  validate(options);
  LatencyBenchReport report;
  report.options = options;
  report.run_id = new_run_id();
  const std::string hex = report.run_id.substr(report.run_id.size() - 8);
  report.store = parse_bench_store(options.store_url, "docket_bench_lt_" + hex + "_docket",
                                   "docket_bench_lt_" + hex + "_raw");
  // Refused before anything is opened when the provider has no side for it.
  if (report.store.provider->latency() == nullptr) {
    outbox_bench(report.store, "latency");
    inbox_bench(report.store, "latency");
  }
  const std::unique_ptr<Transport> transport =
      options.transport_url.empty()
          ? std::unique_ptr<Transport>(std::make_unique<InProcessTransport>(kInProcessCapacity))
          : open_transport(options.transport_url);
  report.transport = transport->describe();
  const std::string destination = "docket-bench." + report.run_id + ".latency";
  // The broker first: one that is down or refuses the login is found before any store
  // is written.
  std::optional<RunQueues> queues;
  if (!options.transport_url.empty()) {
    queues.emplace(transport_bench(options.transport_url), options.transport_url,
                   std::string(kLatencyGroup));
    queues->declare(*transport, destination);
  }

  const RunSchemas schemas(report.store);
  report.store.provider->create_sides(report.store);
  const LatencyStores stores = open_latency_stores(report.store);
  OutboxStore& outbox = *stores.outbox;
  InboxStore& inbox = *stores.inbox;
  outbox.migrate();
  inbox.migrate();
  // Taken now, as the first relay would: on PostgreSQL it opens the listening connection.
  report.store_wakes = outbox.staged_signal() != nullptr;

  report.woken.name = "woken";
  report.polled.name = "polled";
  for (std::size_t round = 0; round < options.rounds; ++round) {
    const std::size_t messages =
        options.messages / options.rounds + (round < options.messages % options.rounds ? 1 : 0);
    for (LatencyMode* mode : {&report.woken, &report.polled}) {
      LatencyOptions run = mode_options(mode == &report.woken);
      run.messages = messages;
      run.rate = options.rate;
      run.destination = destination;
      run.group = std::string(kLatencyGroup);
      run.source = report.run_id;
      // Each round's consumer is new to the inbox: its dedup rows start empty.
      run.consumer_id = report.run_id + "-" + mode->name + "-" + std::to_string(round);
      merge(mode->latency, measure_end_to_end(outbox, inbox, *transport, run));
    }
  }
  for (LatencyMode* mode : {&report.woken, &report.polled}) {
    std::sort(mode->latency.latencies_ms.begin(), mode->latency.latencies_ms.end());
    summarise(mode->latency);
    if (mode->latency.handled < mode->latency.staged) {
      report.problems.push_back(mode->name + ": " + std::to_string(mode->latency.handled) + " of " +
                                std::to_string(mode->latency.staged) +
                                " messages were handled within the grace period");
    }
    mode->idle_queries_per_second = idle_queries_per_second(
        outbox, *transport, mode_options(mode == &report.woken), options.idle_seconds);
  }
  return report;
}

}  // namespace docket::bench
