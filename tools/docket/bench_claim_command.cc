// docket bench claim: the claim inbox's claim cycles per second beside the raw limit.
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "bench_command.h"
#include "bench_output.h"
#include "claim_bench.h"
#include "count_option.h"
#include "docket/printable_store_url.h"

namespace docket::tool {
namespace {

struct BenchClaimOptions {
  bench::ClaimBenchOptions run;
  bool json = false;
};

nlohmann::json report_json(const bench::ClaimBenchReport& report) {
  const auto& docket = report.docket;
  const auto& raw = report.raw;
  return {{"benchmark", "claim"},
          {"store", printable_store_url(report.store.url)},
          {"raw_store", printable_store_url(report.store.raw_db)},
          {"run_id", report.run_id},
          {"messages", report.options.messages},
          {"warmup", report.options.warmup},
          {"threads", report.options.threads},
          {"rate", docket.rate},
          {"raw_rate", raw.rate},
          {"ratio", report.ratio},
          {"round_trips_per_op", round_trips_json(report.round_trips_per_message)},
          {"median_slice_ratio", report.timings.median_slice_ratio()},
          {"slices", report.timings.slices.size()},
          {"seconds", docket.seconds},
          {"raw_seconds", raw.seconds},
          {"claimed", docket.counts.claimed},
          {"raw_claimed", raw.counts.claimed},
          {"processed", docket.counts.processed},
          {"raw_processed", raw.counts.processed},
          {"entries", docket.rows.entries},
          {"raw_entries", raw.rows.entries},
          {"processed_entries", docket.rows.processed},
          {"raw_processed_entries", raw.rows.processed},
          {"ok", report.ok()},
          {"problems", report.problems}};
}

void print_text(const bench::ClaimBenchReport& report) {
  const auto& o = report.options;
  std::cout << "docket bench claim on " << printable_store_url(report.store.url)
            << " (raw baseline on " << printable_store_url(report.store.raw_db) << ")\n"
            << "  " << o.messages << " messages, one claim cycle each (try_claim + "
            << "mark_processed), after " << o.warmup << " untimed; " << o.threads
            << (o.threads == 1 ? " thread" : " threads") << "; run " << report.run_id << "\n";
  auto line = [](std::string_view name, const bench::ClaimSideReport& side) {
    std::cout << "  " << name << fixed(side.rate, 0) << " claims/s  (" << fixed(side.seconds, 2)
              << " s; claimed " << side.counts.claimed << ", processed " << side.counts.processed
              << ")\n";
  };
  line("docket  ", report.docket);
  line("raw     ", report.raw);
  std::cout << "  ratio   " << fixed(report.ratio, 3) << "  (median over "
            << report.timings.slices.size() << " alternating slices "
            << fixed(report.timings.median_slice_ratio(), 3) << ")\n";
  if (report.round_trips_per_message) {
    std::cout << "  round trips a message: " << round_trips_text(*report.round_trips_per_message)
              << "\n";
  }
}

}  // namespace

void add_bench_claim_subcommand(CLI::App& bench_group) {
  CLI::App* command = bench_group.add_subcommand(
      "claim", "Claim inbox claim cycles per second against the raw SQL limit");
  auto options = std::make_shared<BenchClaimOptions>();
  command->add_option("--store", options->run.store_url, "Store URL, e.g. sqlite:///tmp/bench.db")
      ->required();
  command
      ->add_option("--messages", options->run.messages,
                   "Messages, one claim cycle each (1 to 10000000)")
      ->check(whole_count())
      ->default_val(bench::ClaimBenchOptions::kDefaultMessages);
  command
      ->add_option("--warmup", options->run.warmup,
                   "Messages claimed first, untimed, so a server that speeds up as it warms "
                   "is measured warm")
      ->check(whole_count())
      ->default_val(0);
  command->add_option("--threads", options->run.threads, "Threads claiming at once (1 to 64)")
      ->check(whole_count())
      ->default_val(1);
  command->add_flag("--json", options->json,
                    "Print one JSON object: messages, threads, rate, raw_rate, ratio, "
                    "median_slice_ratio, claimed, processed, ...");
  command->footer(
      "Runs one claim cycle per message (try_claim, then mark_processed) through docket's\n"
      "ClaimRunner over the store's claim inbox, and the provider's own claim statements\n"
      "directly through the C API on a twin database (<file>.raw), in the same transaction\n"
      "shape. Rates are claim cycles per second.");
  command->callback([options] {
    const bench::ClaimBenchReport report = bench::run_claim_bench(options->run);
    if (options->json) {
      std::cout << report_json(report).dump() << '\n';
    } else {
      print_text(report);
    }
    throw_if_problems("claim", report.problems);
  });
}

}  // namespace docket::tool
