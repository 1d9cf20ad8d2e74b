// docket bench inbox: the transactional inbox's dispatch rate beside the raw limit.
#include <cstdio>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "bench_command.h"
#include "bench_output.h"
#include "count_option.h"
#include "docket/core/error.h"
#include "docket/stores/printable_store_url.h"
#include "inbox_bench.h"
#include "usage_error.h"

namespace docket::tool {
namespace {

struct BenchInboxOptions {
  bench::InboxBenchOptions run;
  bool random_ids = false;
  bool dedup_at_commit = false;
  bool json = false;
};

nlohmann::json side_json(const bench::InboxSideReport& side) {
  return {{"processed", side.counts.processed},
          {"skipped_duplicates", side.counts.skipped_duplicates},
          {"dedup_rows", side.dedup_rows},
          {"effects", side.effects},
          {"seconds", side.seconds},
          {"rate", side.rate}};
}

nlohmann::json optional_json(const std::optional<double>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

nlohmann::json report_json(const bench::InboxBenchReport& report, const RequestUnitMeter& meter) {
  nlohmann::json segments = nlohmann::json::array();
  for (const auto& segment : report.segments) {
    const double rate = segment.rate(bench::kDocketSide);
    const double raw_rate = segment.rate(bench::kRawSide);
    segments.push_back({{"first_delivery", segment.items.begin},
                        {"end_delivery", segment.items.end},
                        {"rate", rate},
                        {"raw_rate", raw_rate},
                        {"ratio", raw_rate > 0 ? rate / raw_rate : 0.0},
                        {"peak_rss_bytes", segment.peak_rss_bytes}});
  }
  return {
      {"benchmark", "inbox"},
      {"store", printable_store_url(report.store.url)},
      {"raw_store", printable_store_url(report.store.raw_db)},
      {"consumer_id", report.consumer_id},
      {"ids", std::string(bench::to_string(report.options.ids))},
      {"messages", report.options.messages},
      {"warmup", report.options.warmup},
      {"duplicated", report.duplicated},
      {"deliveries", report.deliveries},
      {"batch", report.options.batch},
      {"dedup", report.options.dedup == DedupCheck::kAtCommit ? "at-commit" : "before-handlers"},
      {"threads", report.options.threads},
      {"processed", report.docket.counts.processed},
      {"skipped_duplicates", report.docket.counts.skipped_duplicates},
      {"dedup_rows", report.docket.dedup_rows},
      {"effects", report.docket.effects},
      {"seconds", report.docket.seconds},
      {"rate", report.docket.rate},
      {"raw_rate", report.raw.rate},
      {"ratio", report.ratio},
      {"median_slice_ratio", report.timings.median_slice_ratio()},
      {"round_trips_per_op", round_trips_json(report.round_trips_per_delivery)},
      {"request_units_per_op", request_units_json(meter.per_op(report.round_trips_per_delivery))},
      {"commit_limit_rate", optional_json(report.commit_limit_rate)},
      {"commit_limit_ratio", optional_json(report.commit_limit_ratio)},
      {"slices", report.timings.slices.size()},
      {"peak_rss_bytes", report.peak_rss_bytes},
      {"raw", side_json(report.raw)},
      {"segments", segments},
      {"ok", report.ok()},
      {"problems", report.problems}};
}

void print_text(const bench::InboxBenchReport& report, const RequestUnitMeter& meter,
                bool print_segments) {
  const auto& o = report.options;
  std::cout << "docket bench inbox on " << printable_store_url(report.store.url)
            << " (raw baseline on " << printable_store_url(report.store.raw_db) << ")\n"
            << "  " << o.messages << " messages, " << report.duplicated
            << " delivered twice: " << report.deliveries << " deliveries; batch " << o.batch << ", "
            << o.threads << (o.threads == 1 ? " thread" : " threads") << ", "
            << bench::to_string(o.ids) << " ids"
            << (o.dedup == DedupCheck::kAtCommit ? ", dedup checked at commit" : "") << "\n";
  auto line = [&](std::string_view name, const bench::InboxSideReport& side) {
    std::cout << "  " << name << fixed(side.rate, 0) << " deliveries/s  (" << fixed(side.seconds, 2)
              << " s; processed " << side.counts.processed << ", skipped duplicates "
              << side.counts.skipped_duplicates << ")\n";
  };
  line("docket  ", report.docket);
  line("raw     ", report.raw);
  std::cout << "  ratio   " << fixed(report.ratio, 3) << "  (median over "
            << report.timings.slices.size() << " alternating slices "
            << fixed(report.timings.median_slice_ratio(), 3) << ")\n";
  if (report.round_trips_per_delivery) {
    std::cout << "  round trips a delivery: " << round_trips_text(*report.round_trips_per_delivery)
              << "\n";
  }
  if (const std::string units = request_units_text(meter.per_op(report.round_trips_per_delivery));
      !units.empty()) {
    std::cout << "  request units a delivery: " << units << "\n";
  }
  if (report.commit_limit_rate) {
    std::cout << "  commit limit " << fixed(*report.commit_limit_rate, 0)
              << " single-row commits/s (after the run, same threads); docket / limit "
              << fixed(report.commit_limit_ratio.value_or(0.0), 3) << "\n";
  }
  std::cout << "  peak RSS " << fixed(static_cast<double>(report.peak_rss_bytes) / 1048576.0, 1)
            << " MiB\n";
  if (print_segments) {
    std::cout << "  segment (deliveries)        docket/s      raw/s  ratio  peak RSS MiB\n";
    for (const auto& segment : report.segments) {
      const double rate = segment.rate(bench::kDocketSide);
      const double raw_rate = segment.rate(bench::kRawSide);
      char row[128];
      std::snprintf(row, sizeof row, "  %10zu-%-10zu  %10.0f %10.0f  %5.3f  %8.1f\n",
                    segment.items.begin, segment.items.end, rate, raw_rate,
                    raw_rate > 0 ? rate / raw_rate : 0.0,
                    static_cast<double>(segment.peak_rss_bytes) / 1048576.0);
      std::cout << row;
    }
  }
}

}  // namespace

void add_bench_inbox_subcommand(CLI::App& bench_group) {
  CLI::App* command = bench_group.add_subcommand(
      "inbox", "Inbox dispatch rate (one effect row per message) against the raw SQL limit");
  auto options = std::make_shared<BenchInboxOptions>();
  command->add_option("--store", options->run.store_url, "Store URL, e.g. sqlite:///tmp/bench.db")
      ->required();
  command
      ->add_option("--messages", options->run.messages,
                   "Distinct messages to dispatch (1 to 10000000)")
      ->check(whole_count())
      ->required();
  command
      ->add_option("--warmup", options->run.warmup,
                   "Messages dispatched first as a run of their own, untimed and unchecked, so "
                   "a server that speeds up as it warms is measured warm")
      ->check(whole_count())
      ->default_val(0);
  command
      ->add_option("--duplicates", options->run.duplicate_share,
                   "Share of messages delivered a second time, 0 to 1")
      ->default_val(0.5);
  command
      ->add_option("--batch", options->run.batch,
                   "Messages per transaction (dispatch_batch); 1 dispatches one by one")
      ->check(whole_count())
      ->default_val(1);
  command->add_option("--threads", options->run.threads, "Threads dispatching at once")
      ->check(whole_count())
      ->default_val(1);
  CLI::Option* segment =
      command
          ->add_option("--segment", options->run.segment_deliveries,
                       "Deliveries per reported segment (default 100000); also prints "
                       "each segment's rates and peak RSS")
          ->check(whole_count());
  command->add_flag("--random-ids", options->random_ids,
                    "Random UUIDv4 message ids instead of time-ordered UUIDv7");
  command->add_flag("--dedup-at-commit", options->dedup_at_commit,
                    "Dispatch with DedupCheck::kAtCommit (one flight a dispatch on PostgreSQL; "
                    "handlers of duplicates run, their writes never commit)");
  command->add_flag("--json", options->json,
                    "Print one JSON object: messages, deliveries, processed, "
                    "skipped_duplicates, effects, rate, raw_rate, ratio, peak_rss_bytes, ...");
  command->footer(
      "Dispatches the messages through docket's InboxDispatcher (a handler inserts one\n"
      "effect row through the unit of work's transaction) and the same SQL directly\n"
      "through the C API on a twin database (<file>.raw), in the same transaction shape.\n"
      "Rates are deliveries per second. Use a new file for comparable numbers.");
  command->callback([options, segment] {
    // 0 stands for the default inside the benchmark; given on the command line it is
    // a mistake, refused before anything is opened.
    if (segment->count() > 0 && options->run.segment_deliveries == 0) {
      throw UsageError(
          "--segment is 0; pass deliveries per reported segment, at least 1 (default 100000)");
    }
    options->run.ids = options->random_ids ? bench::IdOrder::kRandom : bench::IdOrder::kTimeOrdered;
    options->run.dedup =
        options->dedup_at_commit ? DedupCheck::kAtCommit : DedupCheck::kBeforeHandlers;
    const RequestUnitMeter meter;
    const bench::InboxBenchReport report =
        run_bench([&options] { return bench::run_inbox_bench(options->run); });
    if (options->json) {
      std::cout << report_json(report, meter).dump() << '\n';
    } else {
      print_text(report, meter, segment->count() > 0);
    }
    throw_if_problems("inbox", report.problems);
  });
}

}  // namespace docket::tool
