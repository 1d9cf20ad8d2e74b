// docket bench relay: confirmed publishes a second through a broker beside the raw
// limit, and the end-to-end time from a producer's commit to a handler's commit.
#include <cstdio>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "bench_command.h"
#include "bench_output.h"
#include "count_option.h"
#include "docket/stores/printable_store_url.h"
#include "docket/transports/open_transport.h"
#include "relay_bench.h"

namespace docket::tool {
namespace {

using bench::kDocketSide;
using bench::kRawSide;

nlohmann::json store_trips_json(const std::optional<double>& trips) {
  return trips ? nlohmann::json(*trips) : nlohmann::json(nullptr);
}

nlohmann::json run_json(const bench::RelayBatchReport& run) {
  const double rate = run.timings.rate(kDocketSide);
  const double raw_rate = run.timings.rate(kRawSide);
  return {{"batch", run.batch},
          {"published", run.published},
          {"passes", run.passes},
          {"rate", rate},
          {"raw_rate", raw_rate},
          {"ratio", ratio_of(rate, raw_rate)},
          {"median_slice_ratio", run.timings.median_slice_ratio()},
          {"raw_confirmed", run.raw_confirmed},
          {"raw_confirm_waits", run.raw_confirm_waits},
          {"queued", run.queued},
          {"round_trips_per_op",
           {{"store", store_trips_json(run.store_round_trips_per_message)},
            {"broker", round_trips_json(run.broker_round_trips_per_message)}}}};
}

nlohmann::json latency_json(const bench::RelayBenchReport& report) {
  if (!report.latency) {
    return nullptr;
  }
  const auto& latency = *report.latency;
  return {{"messages", report.options.latency_messages},
          {"rate", report.options.latency_rate},
          {"poll_ms", report.options.poll_ms},
          {"staged", latency.staged},
          {"handled", latency.handled},
          {"p50_ms", latency.p50_ms},
          {"p99_ms", latency.p99_ms},
          {"max_ms", latency.max_ms}};
}

nlohmann::json report_json(const bench::RelayBenchReport& report) {
  nlohmann::json runs = nlohmann::json::array();
  for (const auto& run : report.runs) {
    runs.push_back(run_json(run));
  }
  return {{"benchmark", "relay"},
          {"store", printable_store_url(report.store.url)},
          {"transport", printable_transport_url(report.options.transport_url)},
          {"run_id", report.run_id},
          {"destination", report.destination},
          {"group", report.group},
          {"messages", report.options.messages},
          {"batches", report.options.batches},
          {"runs", runs},
          {"done", report.done_rows},
          {"latency", latency_json(report)},
          {"ok", report.ok()},
          {"problems", report.problems}};
}

void print_text(const bench::RelayBenchReport& report) {
  const auto& o = report.options;
  std::cout
      << "docket bench relay on " << printable_store_url(report.store.url) << " through "
      << report.transport << "\n"
      << "  " << o.messages << " messages a batch size to " << report.destination << " (group "
      << report.group << "); run " << report.run_id << "\n"
      << "  confirmed publishes/s     docket        raw  ratio  median  round trips/message\n";
  for (const auto& run : report.runs) {
    const double rate = run.timings.rate(kDocketSide);
    const double raw_rate = run.timings.rate(kRawSide);
    const std::string store_trips = run.store_round_trips_per_message
                                        ? fixed(*run.store_round_trips_per_message, 2)
                                        : std::string("-");
    char row[200];
    std::snprintf(row, sizeof row, "  %-22s %10.0f %10.0f  %5.3f  %5.3f  store %s; broker %s\n",
                  ("batch " + std::to_string(run.batch)).c_str(), rate, raw_rate,
                  ratio_of(rate, raw_rate), run.timings.median_slice_ratio(), store_trips.c_str(),
                  round_trips_text(run.broker_round_trips_per_message).c_str());
    std::cout << row;
  }
  if (report.latency) {
    const auto& latency = *report.latency;
    std::cout << "  end to end, producer commit -> handler commit: " << latency.handled << " of "
              << o.latency_messages << " messages at " << o.latency_rate << "/s (relay poll "
              << o.poll_ms << " ms): p50 " << fixed(latency.p50_ms, 2) << " ms, p99 "
              << fixed(latency.p99_ms, 2) << " ms, max " << fixed(latency.max_ms, 2) << " ms\n";
  }
  std::cout << "  marked done " << report.done_rows << "\n";
}

}  // namespace

void add_bench_relay_subcommand(CLI::App& bench_group) {
  CLI::App* command = bench_group.add_subcommand(
      "relay", "Relay publishes through a broker against the raw client library's limit");
  auto options = std::make_shared<bench::RelayBenchOptions>();
  auto json = std::make_shared<bool>(false);
  command->add_option("--store", options->store_url, "Store URL, e.g. sqlite:///tmp/bench.db")
      ->required();
  command
      ->add_option("--transport", options->transport_url,
                   "Broker URL naming the exchange to publish to, e.g. "
                   "amqp://user:password@127.0.0.1:5672/vhost?exchange=docket-bench")
      ->required();
  command->add_option("--messages", options->messages, "Messages published a batch size, a side")
      ->check(whole_count())
      ->default_val(10000);
  command->add_option("--batch", options->batches, "Batch sizes to compare, e.g. 1 100")
      ->check(whole_count())
      ->default_str("1 100");
  command
      ->add_option("--latency-messages", options->latency_messages,
                   "Messages of the end-to-end phase (0 skips it)")
      ->check(whole_count())
      ->default_val(1000);
  command
      ->add_option("--latency-rate", options->latency_rate,
                   "Messages staged a second in the end-to-end phase")
      ->check(whole_count())
      ->default_val(200);
  command
      ->add_option("--poll-ms", options->poll_ms,
                   "Idle wait of the end-to-end phase's relay and consumer, in milliseconds")
      ->check(whole_count())
      ->default_val(5);
  command->add_flag("--json", *json,
                    "Print one JSON object: runs (batch, rate, raw_rate, ratio, round trips), "
                    "latency (p50_ms, p99_ms, max_ms), done, ...");
  command->footer(
      "For each batch size b, docket's side stages --messages messages in the outbox\n"
      "beforehand, then one Relay publishes them all through the transport (claims of\n"
      "max(10 b, 100) rows, publishes of b with confirms, marks a claim at a time); the raw\n"
      "side publishes the same messages (same\n"
      "body and headers) through the broker's client library directly, b at a time, each\n"
      "batch then its confirms awaited. Both alternate in short slices. Rates are confirmed\n"
      "messages per second. Then --latency-messages messages are staged at --latency-rate,\n"
      "relayed, and handled by a consumer into the inbox on the same store: the time from\n"
      "the producer's commit to the handler's commit (p50, p99, max).\n"
      "The transport URL must name an exchange (RabbitMQ: ?exchange=<name>, declared if\n"
      "missing); the run publishes to destinations of its own (<run id>.throughput,\n"
      "<run id>.latency), whose queues it declares first and deletes when it ends.");
  command->callback([options, json] {
    const bench::RelayBenchReport report =
        run_bench([&options] { return bench::run_relay_bench(*options); });
    if (*json) {
      std::cout << report_json(report).dump() << '\n';
    } else {
      print_text(report);
    }
    throw_if_problems("relay", report.problems);
  });
}

}  // namespace docket::tool
