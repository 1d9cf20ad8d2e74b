// docket bench latency: a message's time from its producer's commit to its handler's
// commit, with wake-ups against polling at the default interval, and an idle relay's
// queries a second (bench/latency_bench.h).
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "bench_command.h"
#include "bench_output.h"
#include "count_option.h"
#include "docket/stores/printable_store_url.h"
#include "docket/transports/open_transport.h"
#include "latency_bench.h"

namespace docket::tool {
namespace {

nlohmann::json latency_mode_json(const bench::LatencyMode& mode) {
  const bench::LatencyReport& l = mode.latency;
  return {{"staged", l.staged},
          {"handled", l.handled},
          {"p50_ms", l.p50_ms},
          {"p99_ms", l.p99_ms},
          {"p999_ms", l.p999_ms},
          {"max_ms", l.max_ms},
          {"idle_queries_per_second", mode.idle_queries_per_second}};
}

nlohmann::json latency_report_json(const bench::LatencyBenchReport& report) {
  const auto& o = report.options;
  return {{"benchmark", "latency"},
          {"store", printable_store_url(report.store.url)},
          {"transport", report.transport},
          {"run_id", report.run_id},
          {"messages", o.messages},
          {"rate", o.rate},
          {"rounds", o.rounds},
          {"idle_seconds", o.idle_seconds},
          {"store_wakes", report.store_wakes},
          {"woken", latency_mode_json(report.woken)},
          {"polled", latency_mode_json(report.polled)},
          {"p50_ratio", ratio_of(report.polled.latency.p50_ms, report.woken.latency.p50_ms)},
          {"p99_ratio", ratio_of(report.polled.latency.p99_ms, report.woken.latency.p99_ms)},
          {"ok", report.ok()},
          {"problems", report.problems}};
}

void print_latency_text(const bench::LatencyBenchReport& report) {
  const auto& o = report.options;
  std::cout << "docket bench latency on " << printable_store_url(report.store.url) << " through "
            << report.transport << "\n"
            << "  " << o.messages << " messages a mode at " << o.rate << "/s in " << o.rounds
            << " interleaved rounds; run " << report.run_id << "\n"
            << "  producer commit -> handler commit    p50 ms    p99 ms  p99.9 ms    max ms"
               "  handled  idle queries/s\n";
  // Where the store wakes no relay, the default mode is its idle backoff alone.
  const char* const default_mode =
      report.store_wakes ? "woken (wake-ups, the default)" : "woken (idle backoff: no wake-ups)";
  for (const bench::LatencyMode* mode : {&report.woken, &report.polled}) {
    const bench::LatencyReport& l = mode->latency;
    char row[200];
    std::snprintf(row, sizeof row, "  %-34s %8.2f  %8.2f  %8.2f  %8.2f  %7zu  %14.2f\n",
                  mode == &report.woken ? default_mode : "polled (every 200 ms, no wake-ups)",
                  l.p50_ms, l.p99_ms, l.p999_ms, l.max_ms, static_cast<std::size_t>(l.handled),
                  mode->idle_queries_per_second);
    std::cout << row;
  }
  if (!report.store_wakes) {
    std::cout
        << "  this store wakes no relay at a commit: the default mode's idle waits (200 ms\n"
           "  doubling to 1 s) end on their own, so a message waits out the wait it lands in\n";
  }
  std::cout << "  polled / woken: p50 "
            << fixed(ratio_of(report.polled.latency.p50_ms, report.woken.latency.p50_ms), 1)
            << "x, p99 "
            << fixed(ratio_of(report.polled.latency.p99_ms, report.woken.latency.p99_ms), 1)
            << "x\n";
}

}  // namespace

void add_bench_latency_subcommand(CLI::App& bench_group) {
  CLI::App* command = bench_group.add_subcommand(
      "latency", "A message's time from its producer's commit to its handler's commit");
  auto options = std::make_shared<bench::LatencyBenchOptions>();
  auto json = std::make_shared<bool>(false);
  command
      ->add_option("--store", options->store_url,
                   "Store URL: SQLite, PostgreSQL, DynamoDB or Firestore, e.g. "
                   "sqlite:///tmp/bench.db")
      ->required();
  command->add_option("--transport", options->transport_url,
                      "Broker URL (as for bench relay); none: an in-process transport");
  command->add_option("--messages", options->messages, "Messages a mode, over its rounds")
      ->check(whole_count())
      ->default_val(2000);
  command->add_option("--rate", options->rate, "Messages staged a second")
      ->check(whole_count())
      ->default_val(200);
  command->add_option("--rounds", options->rounds, "Rounds a mode, the modes interleaved")
      ->check(whole_count())
      ->default_val(2);
  command
      ->add_option("--idle-seconds", options->idle_seconds,
                   "How long each mode's relay runs idle to count its queries")
      ->check(whole_count())
      ->default_val(3);
  command->add_flag("--json", *json,
                    "Print one JSON object: woken and polled (p50_ms, p99_ms, p999_ms, max_ms, "
                    "idle_queries_per_second), p50_ratio, p99_ratio, ...");
  command->footer(
      "Messages are staged at --rate, each in its own transaction, relayed through the\n"
      "transport and handled into the inbox on the same store; the time from the\n"
      "producer's commit to the handler's commit is measured in two modes, interleaved:\n"
      "woken (the relay's defaults: woken by the commit where the store can tell, idle\n"
      "waits of 200 ms doubling to 1 s) and polled (wake-ups off, every idle wait\n"
      "200 ms). DynamoDB and Firestore wake no relay: their woken mode is the idle\n"
      "backoff alone. Then each mode's relay runs alone with nothing staged: its claims\n"
      "a second are what an idle service costs its store. See docs/benchmarks/latency.md.");
  command->callback([options, json] {
    const bench::LatencyBenchReport report =
        run_bench([&options] { return bench::run_latency_bench(*options); });
    if (*json) {
      std::cout << latency_report_json(report).dump() << '\n';
    } else {
      print_latency_text(report);
    }
    throw_if_problems("latency", report.problems);
  });
}

}  // namespace docket::tool
