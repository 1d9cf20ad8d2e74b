// docket bench events: the event store's append and load rates beside the raw limit.
#include <cstdio>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "bench_command.h"
#include "bench_output.h"
#include "count_option.h"
#include "docket/stores/printable_store_url.h"
#include "events_bench.h"

namespace docket::tool {
namespace {

using bench::kDocketSide;
using bench::kRawSide;

nlohmann::json case_json(const bench::AppendCaseReport& c, const RequestUnitMeter& meter) {
  const auto& docket = c.sides[kDocketSide];
  const auto& raw = c.sides[kRawSide];
  const auto k = static_cast<double>(c.events_per_append);
  return {{"case", c.name},
          {"round_trips_per_op", round_trips_json(c.round_trips_per_append)},
          {"request_units_per_op", request_units_json(meter.per_op(c.round_trips_per_append))},
          {"streams", c.streams},
          {"events_per_append", c.events_per_append},
          {"appends", c.appends},
          {"events", docket.counts.events},
          {"conflicts", docket.counts.conflicts},
          {"stored_events", docket.stored.events},
          {"stored_streams", docket.stored.streams},
          {"seconds", docket.seconds},
          {"rate", docket.rate},
          {"event_rate", docket.rate * k},
          {"raw_rate", raw.rate},
          {"raw_event_rate", raw.rate * k},
          {"ratio", ratio_of(docket.rate, raw.rate)},
          {"median_slice_ratio", c.timings.median_slice_ratio()},
          {"raw",
           {{"appends_ok", raw.counts.ok},
            {"conflicts", raw.counts.conflicts},
            {"events", raw.counts.events},
            {"stored_events", raw.stored.events},
            {"stored_streams", raw.stored.streams},
            {"seconds", raw.seconds},
            {"rate", raw.rate}}}};
}

nlohmann::json report_json(const bench::EventsBenchReport& report, const RequestUnitMeter& meter) {
  nlohmann::json cases = nlohmann::json::array();
  for (const auto& c : report.cases) {
    cases.push_back(case_json(c, meter));
  }
  const auto& load = report.load;
  return {{"benchmark", "events"},
          {"store", printable_store_url(report.store.url)},
          {"raw_store", printable_store_url(report.store.raw_db)},
          {"run_id", report.run_id},
          {"threads", report.options.threads},
          {"streams", report.options.streams},
          {"appends", report.appends(kDocketSide)},
          {"events", report.events(kDocketSide)},
          {"conflicts", report.conflicts(kDocketSide)},
          {"raw_conflicts", report.conflicts(kRawSide)},
          {"rate", report.rate(kDocketSide)},
          {"raw_rate", report.rate(kRawSide)},
          {"ratio", ratio_of(report.rate(kDocketSide), report.rate(kRawSide))},
          {"cases", cases},
          {"load",
           {{"streams", load.streams},
            {"stream_length", load.stream_length},
            {"loads", load.loads},
            {"events", load.events[kDocketSide]},
            {"raw_events", load.events[kRawSide]},
            {"rate", load.rate(kDocketSide)},
            {"raw_rate", load.rate(kRawSide)},
            {"ratio", ratio_of(load.rate(kDocketSide), load.rate(kRawSide))},
            {"median_slice_ratio", load.timings.median_slice_ratio()}}},
          {"ok", report.ok()},
          {"problems", report.problems}};
}

void print_row(const std::string& label, double rate, double raw_rate, double median,
               const std::string& tail) {
  char row[128];  // the label is at most 34 bytes wide: the numbers always fit
  std::snprintf(row, sizeof row, "  %-34s %10.0f %10.0f  %5.3f  %5.3f  ", label.c_str(), rate,
                raw_rate, ratio_of(rate, raw_rate), median);
  std::cout << row << tail << "\n";
}

void print_text(const bench::EventsBenchReport& report, const RequestUnitMeter& meter) {
  const auto& o = report.options;
  std::cout << "docket bench events on " << printable_store_url(report.store.url)
            << " (raw baseline on " << printable_store_url(report.store.raw_db) << ")\n"
            << "  " << o.appends << " appends per case, " << o.threads
            << (o.threads == 1 ? " thread" : " threads") << "; run " << report.run_id << "\n"
            << "  appends/s                             docket        raw  ratio  median  "
               "conflicts (docket/raw)\n";
  for (const auto& c : report.cases) {
    const std::string label = std::to_string(c.streams) +
                              (c.streams == 1 ? " stream, " : " streams, ") +
                              std::to_string(c.events_per_append) +
                              (c.events_per_append == 1 ? " event" : " events") + " per append";
    std::string tail = std::to_string(c.sides[kDocketSide].counts.conflicts) + " / " +
                       std::to_string(c.sides[kRawSide].counts.conflicts);
    if (c.round_trips_per_append) {
      tail += "; round trips an append " + fixed((*c.round_trips_per_append)[kDocketSide], 2) +
              " / " + fixed((*c.round_trips_per_append)[kRawSide], 2);
    }
    if (const std::string units = request_units_text(meter.per_op(c.round_trips_per_append));
        !units.empty()) {
      tail += "; request units an append " + units;
    }
    print_row(label, c.sides[kDocketSide].rate, c.sides[kRawSide].rate,
              c.timings.median_slice_ratio(), tail);
  }
  std::cout << "  all appends: ratio "
            << fixed(ratio_of(report.rate(kDocketSide), report.rate(kRawSide)), 3) << "\n"
            << "  events loaded/s\n";
  const auto& load = report.load;
  print_row(std::to_string(load.loads) + " loads of " + std::to_string(load.stream_length) +
                "-event streams",
            load.rate(kDocketSide), load.rate(kRawSide), load.timings.median_slice_ratio(), "");
}

}  // namespace

void add_bench_events_subcommand(CLI::App& bench_group) {
  CLI::App* command = bench_group.add_subcommand(
      "events", "Event store appends and loads per second against the raw SQL limit");
  auto options = std::make_shared<bench::EventsBenchOptions>();
  auto json = std::make_shared<bool>(false);
  command->add_option("--store", options->store_url, "Store URL, e.g. sqlite:///tmp/bench.db")
      ->required();
  command->add_option("--appends", options->appends, "Appends per case")
      ->check(whole_count())
      ->default_val(2000);
  CLI::Option* per_append =
      command
          ->add_option("--events-per-append", options->events_per_append,
                       "Events per append (default: the cases of 1 and of 10)")
          ->check(whole_count());
  command->add_option("--streams", options->streams, "Streams of the many-streams cases")
      ->check(whole_count())
      ->default_val(1000);
  command->add_option("--threads", options->threads, "Threads appending (and loading) at once")
      ->check(whole_count())
      ->default_val(1);
  command->add_option("--loads", options->loads, "Whole-stream loads")
      ->check(whole_count())
      ->default_val(2000);
  command->add_option("--stream-length", options->stream_length, "Events per loaded stream")
      ->check(whole_count())
      ->default_val(100);
  command->add_flag("--json", *json,
                    "Print one JSON object: appends, events, rate, raw_rate, ratio, conflicts, "
                    "cases, load, ...");
  command->footer(
      "Appends through docket's EventStore and the same SQL directly through the C API on\n"
      "a twin database (<file>.raw), in the same transaction shape: K events per append\n"
      "(1 and 10 by default) to one stream and to --streams streams, then whole-stream\n"
      "loads. Append rates are appends per second, the load rate events per second.");
  command->callback([options, json, per_append] {
    if (per_append->count() == 0) {
      options->events_per_append = {1, 10};
    }
    const RequestUnitMeter meter;
    const bench::EventsBenchReport report =
        run_bench([&options] { return bench::run_events_bench(*options); });
    if (*json) {
      std::cout << report_json(report, meter).dump() << '\n';
    } else {
      print_text(report, meter);
    }
    throw_if_problems("events", report.problems);
  });
}

}  // namespace docket::tool
