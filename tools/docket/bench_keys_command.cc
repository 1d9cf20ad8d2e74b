// docket bench keys: key composition rates beside the raw limit of copying the same
// key bytes.
#include <cstdio>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench_command.h"
#include "bench_output.h"
#include "count_option.h"
#include "keys_bench.h"
#include "provider_option.h"

namespace docket::tool {
namespace {

struct BenchKeysOptions {
  double seconds = bench::KeysBenchOptions::kDefaultSeconds;
  std::size_t iterations = 0;
  std::vector<std::string> providers;
  bool json = false;
};

std::string case_name(const bench::KeysCaseReport& c) {
  return std::string(keys::provider_name(c.key_case.provider)) + " " +
         std::string(bench::to_string(c.key_case.kind)) + " " +
         std::string(bench::to_string(c.terms));
}

double per_key(std::uint64_t bytes, std::uint64_t keys) {
  return keys > 0 ? static_cast<double>(bytes) / static_cast<double>(keys) : 0.0;
}

nlohmann::json case_json(const bench::KeysCaseReport& c) {
  const auto& docket = c.docket;
  const auto& raw = c.raw;
  return {{"provider", keys::provider_name(c.key_case.provider)},
          {"kind", bench::to_string(c.key_case.kind)},
          {"shape", c.shape},
          {"field", c.field},
          {"limit_bytes", c.limit_bytes},
          {"terms", bench::to_string(c.terms)},
          {"tuples", c.tuples},
          {"keys", docket.keys},
          {"input_bytes", docket.input_bytes},
          {"output_bytes", docket.output_bytes},
          {"input_bytes_per_key", per_key(docket.input_bytes, docket.keys)},
          {"output_bytes_per_key", per_key(docket.output_bytes, docket.keys)},
          {"seconds", docket.seconds},
          {"rate", docket.rate},
          {"input_byte_rate", docket.input_byte_rate},
          {"output_byte_rate", docket.output_byte_rate},
          {"raw_rate", raw.rate},
          {"raw_output_byte_rate", raw.output_byte_rate},
          {"ratio", c.ratio},
          {"median_slice_ratio", c.timings.median_slice_ratio()},
          {"slices", c.timings.slices.size()},
          {"raw",
           {{"keys", raw.keys},
            {"output_bytes", raw.output_bytes},
            {"seconds", raw.seconds},
            {"rate", raw.rate}}}};
}

nlohmann::json worst_case_json(const bench::KeysBenchReport& report) {
  const bench::KeysCaseReport* slowest = report.slowest_worst_case();
  const bench::KeysCaseReport* lowest = report.lowest_worst_case_ratio();
  if (slowest == nullptr || lowest == nullptr) {
    return nullptr;
  }
  return {{"input_byte_rate", slowest->docket.input_byte_rate},
          {"input_byte_rate_case", case_name(*slowest)},
          {"ratio", lowest->ratio},
          {"ratio_case", case_name(*lowest)}};
}

nlohmann::json report_json(const bench::KeysBenchReport& report) {
  const auto& o = report.options;
  nlohmann::json cases = nlohmann::json::array();
  for (const auto& c : report.cases) {
    cases.push_back(case_json(c));
  }
  nlohmann::json providers = nlohmann::json::array();
  for (const keys::Provider provider : o.providers) {
    providers.push_back(keys::provider_name(provider));
  }
  return {{"benchmark", "keys"},
          {"seconds_per_case", o.seconds ? nlohmann::json(*o.seconds) : nlohmann::json(nullptr)},
          {"iterations", o.iterations ? nlohmann::json(*o.iterations) : nlohmann::json(nullptr)},
          {"providers", providers},
          {"cases", cases},
          {"worst_case", worst_case_json(report)},
          {"ok", report.ok()},
          {"problems", report.problems}};
}

void print_text(const bench::KeysBenchReport& report) {
  const auto& o = report.options;
  std::cout << "docket bench keys: "
            << (o.seconds ? fixed(*o.seconds, 2) + " s per case"
                          : std::to_string(*o.iterations) + " keys per side per case")
            << "\n  docket composes each key through the public API; raw copies the same key "
               "bytes into a new string\n"
            << "  in/out: term bytes in, key bytes out, per key and in MB/s (10^6 bytes/s)\n"
            << "  provider      kind    terms        in B/key out B/key     keys/s    in MB/s   "
               "out MB/s  raw keys/s raw out MB/s  ratio  median\n";
  for (const auto& c : report.cases) {
    char row[256];
    std::snprintf(row, sizeof row,
                  "  %-13s %-7s %-10s %10.0f %9.0f %10.0f %10.0f %10.0f %11.0f %12.0f  %5.3f  "
                  "%5.3f\n",
                  std::string(keys::provider_name(c.key_case.provider)).c_str(),
                  std::string(bench::to_string(c.key_case.kind)).c_str(),
                  std::string(bench::to_string(c.terms)).c_str(),
                  per_key(c.docket.input_bytes, c.docket.keys),
                  per_key(c.docket.output_bytes, c.docket.keys), c.docket.rate,
                  c.docket.input_byte_rate / 1e6, c.docket.output_byte_rate / 1e6, c.raw.rate,
                  c.raw.output_byte_rate / 1e6, c.ratio, c.timings.median_slice_ratio());
    std::cout << row;
  }
  const bench::KeysCaseReport* slowest = report.slowest_worst_case();
  const bench::KeysCaseReport* lowest = report.lowest_worst_case_ratio();
  if (slowest != nullptr && lowest != nullptr) {
    std::cout << "  worst-case terms: slowest " << fixed(slowest->docket.input_byte_rate / 1e6, 0)
              << " MB/s of input (" << case_name(*slowest) << "); lowest ratio "
              << fixed(lowest->ratio, 3) << " (" << case_name(*lowest) << ")\n";
  }
}

}  // namespace

void add_bench_keys_subcommand(CLI::App& bench_group) {
  CLI::App* command = bench_group.add_subcommand(
      "keys", "Key composition per second against copying the same key bytes");
  auto options = std::make_shared<BenchKeysOptions>();
  CLI::Option* seconds =
      command->add_option("--seconds", options->seconds,
                          "Seconds each case runs, both sides together (0.01 to 60; default 0.25)");
  CLI::Option* iterations =
      command
          ->add_option("--iterations", options->iterations,
                       "Keys each side composes per case, instead of --seconds (1 to 1000000000)")
          ->check(whole_count());
  command
      ->add_option("--provider", options->providers,
                   "A provider to run (repeatable; default: every one): " + provider_names())
      ->check(known_provider());
  command->add_flag("--json", options->json,
                    "Print one JSON object: cases (per provider, kind and term set: rate, "
                    "input_byte_rate, output_byte_rate, raw_rate, ratio, ...), worst_case, ...");
  command->footer(
      "For each provider and key kind (inbox entry id, stream key, saga key), over realistic\n"
      "and worst-case terms: docket composes the keys (UTF-8 validation, escaping, limit\n"
      "check) beside a copy of the same key bytes into a new string (allocation + memcpy),\n"
      "alternating in slices of about 2 ms. Input bytes are the terms' bytes, output bytes\n"
      "the keys'. See docs/benchmarks.md.");
  command->callback([options, seconds, iterations] {
    bench::KeysBenchOptions run;
    if (seconds->count() > 0) {
      run.seconds = options->seconds;
    }
    if (iterations->count() > 0) {
      run.iterations = options->iterations;
    }
    for (const std::string& name : options->providers) {
      run.providers.push_back(provider_named(name));
    }
    const bench::KeysBenchReport report = run_bench([&run] { return bench::run_keys_bench(run); });
    if (options->json) {
      std::cout << report_json(report).dump() << '\n';
    } else {
      print_text(report);
    }
    throw_if_problems("keys", report.problems);
  });
}

}  // namespace docket::tool
