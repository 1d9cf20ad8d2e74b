// docket bench claim: the claim inbox's messages per second, each with its handler's
// effect, beside the raw limit.
#include <cstdint>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "bench_command.h"
#include "bench_output.h"
#include "claim_bench.h"
#include "count_option.h"
#include "docket/stores/printable_store_url.h"

namespace docket::tool {
namespace {

struct BenchClaimOptions {
  bench::ClaimBenchOptions run;
  bool no_effect = false;
  bool json = false;
};

// Each side stored one effect per message of the run, no more, under distinct message
// ids (null under --no-effect: there are none to count).
nlohmann::json effects_exactly_once(const bench::ClaimBenchReport& report) {
  if (!report.options.effect) {
    return nullptr;
  }
  const auto once = [&](const bench::ClaimSideReport& side) {
    const auto messages = static_cast<std::int64_t>(report.options.total_messages());
    return side.rows.effects == messages && side.rows.effect_messages == messages;
  };
  return once(report.docket) && once(report.raw);
}

nlohmann::json report_json(const bench::ClaimBenchReport& report, const RequestUnitMeter& meter) {
  const auto& docket = report.docket;
  const auto& raw = report.raw;
  const auto units = meter.per_op(report.round_trips_per_message);
  return {{"benchmark", "claim"},
          {"store", printable_store_url(report.store.url)},
          {"raw_store", printable_store_url(report.store.raw_db)},
          {"run_id", report.run_id},
          {"messages", report.options.messages},
          {"warmup", report.options.warmup},
          {"threads", report.options.threads},
          {"batch", report.options.batch},
          {"duplicates", report.options.duplicate_share},
          {"deliveries", report.deliveries},
          {"duplicate_deliveries", report.duplicate_deliveries},
          {"effect", report.options.effect},
          {"rate", docket.rate},
          {"raw_rate", raw.rate},
          {"handled_rate", docket.handled_rate},
          {"raw_handled_rate", raw.handled_rate},
          {"ratio", report.ratio},
          {"round_trips_per_op", round_trips_json(report.round_trips_per_message)},
          {"request_units_per_op", request_units_json(units)},
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
          {"skipped", docket.counts.skipped},
          {"raw_skipped", raw.counts.skipped},
          {"effects", docket.counts.effects},
          {"raw_effects", raw.counts.effects},
          {"effect_items", docket.rows.effects},
          {"raw_effect_items", raw.rows.effects},
          {"effect_messages", docket.rows.effect_messages},
          {"raw_effect_messages", raw.rows.effect_messages},
          {"effects_exactly_once", effects_exactly_once(report)},
          {"ok", report.ok()},
          {"problems", report.problems}};
}

void print_text(const bench::ClaimBenchReport& report, const RequestUnitMeter& meter) {
  const auto& o = report.options;
  std::cout << "docket bench claim on " << printable_store_url(report.store.url)
            << " (raw baseline on " << printable_store_url(report.store.raw_db) << ")\n"
            << "  " << o.messages << " messages, " << report.deliveries << " deliveries ("
            << report.duplicate_deliveries << " redelivered), one claim cycle each ("
            << (o.batch == 1 ? "try_claim, " : "try_claim_batch, ")
            << (o.effect ? "the handler's effect, " : "no effect, ")
            << (o.batch == 1 ? "mark_processed" : "mark_processed_batch") << "), after " << o.warmup
            << " untimed; " << o.threads << (o.threads == 1 ? " thread" : " threads")
            << (o.batch == 1 ? "" : ", batches of " + std::to_string(o.batch)) << "; run "
            << report.run_id << "\n";
  auto line = [](std::string_view name, const bench::ClaimSideReport& side) {
    std::cout << "  " << name << fixed(side.rate, 0) << " deliveries/s, "
              << fixed(side.handled_rate, 0) << " messages/s  (" << fixed(side.seconds, 2)
              << " s; claimed " << side.counts.claimed << ", processed " << side.counts.processed
              << ", skipped " << side.counts.skipped << ", effects " << side.rows.effects << ")\n";
  };
  line("docket  ", report.docket);
  line("raw     ", report.raw);
  std::cout << "  ratio   " << fixed(report.ratio, 3) << "  (median over "
            << report.timings.slices.size() << " alternating slices "
            << fixed(report.timings.median_slice_ratio(), 3) << ")\n";
  if (report.round_trips_per_message) {
    std::cout << "  round trips a delivery: " << round_trips_text(*report.round_trips_per_message)
              << "\n";
  }
  if (const std::string units = request_units_text(meter.per_op(report.round_trips_per_message));
      !units.empty()) {
    std::cout << "  request units a delivery: " << units << "\n";
  }
}

}  // namespace

void add_bench_claim_subcommand(CLI::App& bench_group) {
  CLI::App* command = bench_group.add_subcommand(
      "claim", "Claim inbox messages per second, an effect each, against the raw limit");
  auto options = std::make_shared<BenchClaimOptions>();
  command->add_option("--store", options->run.store_url, "Store URL, e.g. sqlite:///tmp/bench.db")
      ->required();
  command
      ->add_option("--messages", options->run.messages,
                   "Distinct messages, one claim cycle a delivery (1 to 10000000)")
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
  command
      ->add_option("--batch", options->run.batch,
                   "Deliveries a thread claims and marks together (try_claim_batch, "
                   "mark_processed_batch), 1 to 100; 1 claims each on its own")
      ->check(whole_count())
      ->default_val(1);
  command
      ->add_option("--duplicates", options->run.duplicate_share,
                   "Share of messages delivered a second time, 0 to 1 (each redelivery 10 "
                   "deliveries after its first)")
      ->default_val(0.0);
  command->add_flag("--no-effect", options->no_effect,
                    "The handler writes nothing: the claim cycle alone, as before effects");
  command->add_flag("--json", options->json,
                    "Print one JSON object: messages, deliveries, threads, rate, handled_rate, "
                    "raw_rate, ratio, round_trips_per_op, effects_exactly_once, ...");
  command->footer(
      "Per delivery, one claim cycle through docket's ClaimRunner over the store's claim\n"
      "inbox: try_claim; when it claimed, the handler writes one effect (an item or row\n"
      "keyed by a fresh UUID in docket_bench_claim_effects, in its own request) and the\n"
      "entry is marked processed. The raw side issues the provider's own claim statements\n"
      "directly on a twin database (<file>.raw, or a schema or table prefix of its own),\n"
      "in the same shape, with the same effect. The checks count one entry and exactly\n"
      "one effect per message on both sides.");
  command->callback([options] {
    options->run.effect = !options->no_effect;
    const RequestUnitMeter meter;
    const bench::ClaimBenchReport report =
        run_bench([&options] { return bench::run_claim_bench(options->run); });
    if (options->json) {
      std::cout << report_json(report, meter).dump() << '\n';
    } else {
      print_text(report, meter);
    }
    throw_if_problems("claim", report.problems);
  });
}

}  // namespace docket::tool
