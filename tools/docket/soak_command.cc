// docket soak: options, range checks, the samples as they come and the verdict.
#include "soak_command.h"

#include <cstdio>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "count_option.h"
#include "docket/core/error.h"
#include "docket/stores/printable_store_url.h"
#include "duration_option.h"
#include "shared_store.h"
#include "soak/soak_run.h"
#include "usage_error.h"

namespace docket::tool {
namespace {

constexpr std::uint64_t kMaxRate = 10'000;

struct SoakArgs {
  std::string store;
  std::string duration = "1h";
  std::string retention = "1m";
  std::string sample_every = "1m";
  std::uint64_t rate = 100;
  bool json = false;
};

std::string rows_text(const std::optional<std::int64_t>& rows) {
  return rows ? std::to_string(*rows) : "-";
}

nlohmann::json sample_json(const SoakSample& s) {
  nlohmann::json out = {{"seconds", s.seconds},          {"placed", s.placed},
                        {"invoiced", s.invoiced},        {"rss_kib", s.rss_kib},
                        {"open_fds", s.open_fds},        {"purged_outbox", s.purged_outbox},
                        {"purged_inbox", s.purged_inbox}};
  out["outbox_rows"] = s.outbox_rows ? nlohmann::json(*s.outbox_rows) : nlohmann::json();
  out["inbox_rows"] = s.inbox_rows ? nlohmann::json(*s.inbox_rows) : nlohmann::json();
  return out;
}

void run_soak_command(const SoakArgs& args) {
  if (args.rate < 1 || args.rate > kMaxRate) {
    throw UsageError("soak: --rate is " + std::to_string(args.rate) + "; give 1 to " +
                     std::to_string(kMaxRate));
  }
  const SoakOptions options{.store_url = args.store,
                            .duration = parse_duration("--duration", args.duration),
                            .orders_per_second = args.rate,
                            .retention = parse_duration("--retention", args.retention),
                            .retention_interval = std::chrono::seconds(10),
                            .sample_every = parse_duration("--sample-every", args.sample_every)};
  if (options.duration < 2 * options.sample_every) {
    throw UsageError("soak: --duration " + args.duration + " holds fewer than two samples " +
                     "of --sample-every " + args.sample_every +
                     "; give a duration at least twice the sampling period");
  }
  // Before the header: a refused store prints nothing on stdout.
  require_shared_store("soak", args.store,
                       "opens its outbox, inbox and order tables on it as separate stores",
                       "sqlite:///tmp/soak.db");
  const std::string store = printable_store_url(args.store);
  // The header once the store is set up and answered: a store that cannot be reached
  // prints nothing but its refusal.
  const auto print_header = [&] {
    if (!args.json) {
      std::cout << "docket soak on " << store << ": " << args.rate << " orders/s for "
                << args.duration << ", retention " << args.retention << '\n'
                << "   seconds    placed  invoiced   rss_kib  fds  outbox_rows  inbox_rows\n";
    }
  };
  const SoakReport report = run_soak(options, print_header, [&](const SoakSample& s) {
    if (args.json) {
      return;
    }
    char line[160];
    std::snprintf(line, sizeof line, "%10.0f %9llu %9llu %9lld %4lld %12s %11s", s.seconds,
                  static_cast<unsigned long long>(s.placed),
                  static_cast<unsigned long long>(s.invoiced), static_cast<long long>(s.rss_kib),
                  static_cast<long long>(s.open_fds), rows_text(s.outbox_rows).c_str(),
                  rows_text(s.inbox_rows).c_str());
    std::cout << line << std::endl;
  });
  if (args.json) {
    nlohmann::json samples = nlohmann::json::array();
    for (const SoakSample& s : report.samples) {
      samples.push_back(sample_json(s));
    }
    std::cout << nlohmann::json{{"store", store},
                                {"rate", args.rate},
                                {"samples", samples},
                                {"table_bound", report.table_bound},
                                {"memory_flat", report.memory_flat},
                                {"tables_bounded", report.tables_bounded},
                                {"orders", report.orders},
                                {"invoices", report.invoices},
                                {"doubled", report.doubled},
                                {"ok", report.ok()}}
                     .dump()
              << '\n';
  } else {
    std::cout << "memory    " << (report.memory_flat ? "flat" : "GREW") << '\n'
              << "tables    " << (report.tables_bounded ? "bounded" : "OUTGREW") << " (bound "
              << report.table_bound << " rows)\n"
              << "orders    " << report.orders << ", invoices " << report.invoices << ", doubled "
              << report.doubled << '\n'
              << (report.ok() ? "ok" : "FAILED") << '\n';
  }
  if (!report.ok()) {
    throw Error("soak: " + std::string(report.orders == 0 ? "no order was placed; " : "") +
                "memory " + std::string(report.memory_flat ? "flat" : "grew") + ", tables " +
                (report.tables_bounded ? "bounded" : "outgrew their bound") + ", " +
                std::to_string(report.invoices) + " invoices for " + std::to_string(report.orders) +
                " orders");
  }
}

}  // namespace

void add_soak_command(CLI::App& app) {
  auto args = std::make_shared<SoakArgs>();
  CLI::App* soak = app.add_subcommand(
      "soak",
      "Run the order pipeline at a steady rate with retention running; sample memory, open "
      "descriptors and docket's table sizes; check memory stays flat and tables bounded.");
  soak->add_option("--store", args->store,
                   "Store URL: sqlite:///tmp/soak.db, postgresql://user@host:port/db")
      ->required();
  soak->add_option("--duration", args->duration, "How long to run: 90s, 15m, 1h")
      ->check(duration_text())
      ->capture_default_str();
  soak->add_option("--rate", args->rate, "Orders placed a second (1 to 10000)")
      ->check(whole_count())
      ->capture_default_str();
  soak->add_option("--retention", args->retention,
                   "Outbox messages done and inbox records processed longer ago are deleted")
      ->check(duration_text())
      ->capture_default_str();
  soak->add_option("--sample-every", args->sample_every, "Sampling period")
      ->check(duration_text())
      ->capture_default_str();
  soak->add_flag("--json", args->json,
                 "Print one JSON object at the end: samples, table_bound, memory_flat, "
                 "tables_bounded, orders, invoices, doubled, ok");
  soak->callback([args] { run_soak_command(*args); });
}

}  // namespace docket::tool
