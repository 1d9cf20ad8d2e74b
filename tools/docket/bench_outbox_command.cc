// docket bench outbox: staged and relayed messages per second beside the raw limit.
#include <cstdio>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "bench_command.h"
#include "bench_output.h"
#include "count_option.h"
#include "docket/stores/printable_store_url.h"
#include "outbox_bench.h"

namespace docket::tool {
namespace {

using bench::kDocketSide;
using bench::kRawSide;

nlohmann::json relay_json(const bench::RelayRunReport& run) {
  const double rate = run.timings.rate(kDocketSide);
  const double raw_rate = run.timings.rate(kRawSide);
  return {{"relays", run.relays},
          {"published", run.tally[kDocketSide].published},
          {"passes", run.tally[kDocketSide].passes},
          {"rate", rate},
          {"raw_rate", raw_rate},
          {"ratio", ratio_of(rate, raw_rate)},
          {"median_slice_ratio", run.timings.median_slice_ratio()},
          {"round_trips_per_op", round_trips_json(run.round_trips_per_message)},
          {"request_units_per_op", request_units_json(run.request_units_per_message)},
          {"raw_published", run.tally[kRawSide].published},
          {"raw_passes", run.tally[kRawSide].passes}};
}

nlohmann::json report_json(const bench::OutboxBenchReport& report) {
  nlohmann::json relay = nlohmann::json::array();
  for (const auto& run : report.relay_runs) {
    relay.push_back(relay_json(run));
  }
  const auto& first = report.relay_runs.front();
  const auto& docket = report.checks[kDocketSide];
  const auto& raw = report.checks[kRawSide];
  const double rate = report.stage.rate(kDocketSide);
  const double raw_rate = report.stage.rate(kRawSide);
  return {{"benchmark", "outbox"},
          {"store", printable_store_url(report.store.url)},
          {"raw_store", printable_store_url(report.store.raw_db)},
          {"run_id", report.run_id},
          {"messages", report.options.messages},
          {"threads", report.options.threads},
          {"batch", report.options.batch},
          {"relays", report.options.relays},
          {"staged", report.options.messages},
          {"rate", rate},
          {"raw_rate", raw_rate},
          {"ratio", ratio_of(rate, raw_rate)},
          {"median_slice_ratio", report.stage.median_slice_ratio()},
          {"round_trips_per_op", round_trips_json(report.stage_round_trips_per_message)},
          {"request_units_per_op", request_units_json(report.stage_request_units_per_message)},
          {"relay_rate", first.timings.rate(kDocketSide)},
          {"raw_relay_rate", first.timings.rate(kRawSide)},
          {"relay_ratio", ratio_of(first.timings.rate(kDocketSide), first.timings.rate(kRawSide))},
          {"relay", relay},
          {"rows", docket.rows},
          {"raw_rows", raw.rows},
          {"done", docket.done},
          {"raw_done", raw.done},
          {"published", docket.published},
          {"raw_published", raw.published},
          {"duplicates", docket.published - docket.distinct},
          {"raw_duplicates", raw.published - raw.distinct},
          {"ok", report.ok()},
          {"problems", report.problems}};
}

// The round trips and request units a message of a row took, where counted: "a message:
// round trips docket 2.00, raw 2.00; request units docket 2.00, raw 2.00".
void print_costs(const std::optional<std::array<double, 2>>& trips,
                 const bench::RequestUnitsPerItem& units) {
  const std::string units_text = request_units_text(units);
  if (!trips && units_text.empty()) {
    return;
  }
  std::cout << "    a message:";
  if (trips) {
    std::cout << " round trips " << round_trips_text(*trips) << (units_text.empty() ? "" : ";");
  }
  if (!units_text.empty()) {
    std::cout << " request units " << units_text;
  }
  std::cout << "\n";
}

void print_row(const std::string& label, const bench::SideBySideTimings& timings) {
  const double rate = timings.rate(kDocketSide);
  const double raw_rate = timings.rate(kRawSide);
  char row[160];
  std::snprintf(row, sizeof row, "  %-30s %10.0f %10.0f  %5.3f  %5.3f\n", label.c_str(), rate,
                raw_rate, ratio_of(rate, raw_rate), timings.median_slice_ratio());
  std::cout << row;
}

void print_text(const bench::OutboxBenchReport& report) {
  const auto& o = report.options;
  std::cout << "docket bench outbox on " << printable_store_url(report.store.url)
            << " (raw baseline on " << printable_store_url(report.store.raw_db) << ")\n"
            << "  " << o.messages << " messages, " << o.threads
            << (o.threads == 1 ? " producer thread" : " producer threads") << ", relay batch "
            << o.batch << "; run " << report.run_id << "\n"
            << "  messages/s                         docket        raw  ratio  median\n";
  print_row("staged, one per transaction", report.stage);
  print_costs(report.stage_round_trips_per_message, report.stage_request_units_per_message);
  for (const auto& run : report.relay_runs) {
    print_row("relayed, " + std::to_string(run.relays) + (run.relays == 1 ? " relay" : " relays"),
              run.timings);
    print_costs(run.round_trips_per_message, run.request_units_per_message);
  }
  const auto& docket = report.checks[kDocketSide];
  const auto& raw = report.checks[kRawSide];
  std::cout << "  published " << docket.published << " (duplicates "
            << docket.published - docket.distinct << "), raw " << raw.published << "; done "
            << docket.done << " of " << docket.rows << ", raw " << raw.done << " of " << raw.rows
            << "\n";
}

}  // namespace

void add_bench_outbox_subcommand(CLI::App& bench_group) {
  CLI::App* command =
      bench_group.add_subcommand("outbox", "Outbox staging and relay rates against the raw limit");
  auto options = std::make_shared<bench::OutboxBenchOptions>();
  auto json = std::make_shared<bool>(false);
  command->add_option("--store", options->store_url, "Store URL, e.g. sqlite:///tmp/bench.db")
      ->required();
  command->add_option("--messages", options->messages, "Messages staged (and relayed per run)")
      ->check(whole_count())
      ->default_val(2000);
  command->add_option("--threads", options->threads, "Producer threads staging at once")
      ->check(whole_count())
      ->default_val(1);
  command->add_option("--batch", options->batch, "Rows a relay claims per pass")
      ->check(whole_count())
      ->default_val(100);
  command
      ->add_option("--relays", options->relays,
                   "Relay counts to run, e.g. 1 2 4 (default: 1 on SQLite, Cosmos DB, DynamoDB and "
                   "Firestore, 1 2 on Redis, 1 2 4 on PostgreSQL)")
      ->check(whole_count());
  command->add_flag("--json", *json,
                    "Print one JSON object: staged, rate, raw_rate, ratio, round_trips_per_op, "
                    "request_units_per_op, relay_rate, relay, published, done, ...");
  command->footer(
      "Stages each message in a producer transaction of its own through Outbox::stage, then\n"
      "relays them with Relay::run_once through a counting transport; the raw baseline\n"
      "does the same staging, claims and marks the fastest way the database allows,\n"
      "directly through its client, on a twin database (<file>.raw; elsewhere a schema,\n"
      "prefix or database of the run's own, dropped afterwards). Rates are messages per\n"
      "second; round trips and, where billed (Cosmos DB), request units are per message.");
  command->callback([options, json] {
    const bench::OutboxBenchReport report =
        run_bench([&options] { return bench::run_outbox_bench(*options); });
    if (*json) {
      std::cout << report_json(report).dump() << '\n';
    } else {
      print_text(report);
    }
    throw_if_problems("outbox", report.problems);
  });
}

}  // namespace docket::tool
