#include "demo_command.h"

#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "count_option.h"
#include "docket/core/error.h"
#include "docket/stores/printable_store_url.h"
#include "docket/transports/open_transport.h"
#include "order_pipeline.h"
#include "services.h"
#include "services_for_store.h"
#include "usage_error.h"

namespace docket::tool {
namespace {

using examples::PipelineProgress;
using examples::PipelineReport;

// The most orders one demo run places: minutes of work on a laptop, far from any limit.
constexpr std::size_t kMaxDemoOrders = 10'000'000;

struct DemoArgs {
  std::size_t orders = 1000;
  std::string store;
  bool store_given = false;  // --store was on the command line (perhaps empty)
  std::string dir;
  std::string faults = "some";
  std::uint64_t seed = 1;
  std::string transport;
  bool transport_given = false;  // --transport was on the command line (perhaps empty)
  bool json = false;
};

// A fresh directory under the system temp directory, removed with its files.
class TempDir {
 public:
  TempDir() {
    std::string path = (std::filesystem::temp_directory_path() / "docket-demo-XXXXXX").string();
    if (mkdtemp(path.data()) == nullptr) {
      throw InfrastructureError("demo: could not create a temporary directory at " + path +
                                "; pass --dir or --store");
    }
    path_ = path;
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  const std::filesystem::path& path() const noexcept { return path_; }

 private:
  std::filesystem::path path_;
};

void show_progress(const PipelineProgress& p, bool terminal) {
  constexpr int kWidth = 30;
  const std::size_t total = p.total == 0 ? 1 : p.total;
  if (terminal) {
    const int filled = static_cast<int>(kWidth * p.processed / total);
    std::printf("\r  [%s%s] placed %zu  published %zu  invoiced %zu / %zu",
                std::string(filled, '#').c_str(), std::string(kWidth - filled, '.').c_str(),
                p.placed, p.published, p.processed, p.total);
    std::fflush(stdout);
    return;
  }
  static std::size_t last_quarter = 0;  // plain lines: one per quarter of the invoices
  const std::size_t quarter = 4 * p.processed / total;
  if (quarter > last_quarter) {
    last_quarter = quarter;
    std::printf("  progress: placed %zu, published %zu, invoiced %zu of %zu\n", p.placed,
                p.published, p.processed, p.total);
    std::fflush(stdout);  // a line as it happens, also into a pipe
  }
}

void print_summary(const PipelineReport& r, const std::string& store,
                   const std::string& transport) {
  std::printf("\norder pipeline on %s%s%s (%.2f s)\n", store.c_str(),
              transport.empty() ? "" : " across ", transport.c_str(), r.seconds);
  std::printf(
      "  orders placed           %zu   (order row + OrderPlaced staged in one transaction)\n"
      "  messages published      %llu   (relay retries after transport failures: %llu)\n"
      "  deliveries received     %llu   (redeliveries %llu, duplicates %llu, consumer restarts "
      "%d)\n"
      "  processed               %llu\n",
      r.orders, static_cast<unsigned long long>(r.published),
      static_cast<unsigned long long>(r.publish_retries),
      static_cast<unsigned long long>(r.deliveries),
      static_cast<unsigned long long>(r.redeliveries),
      static_cast<unsigned long long>(r.duplicates), r.consumer_restarts,
      static_cast<unsigned long long>(r.processed));
  if (r.earlier_runs_processed > 0) {
    std::printf("  earlier runs' orders    %llu   (left in the outbox by a run that ended early)\n",
                static_cast<unsigned long long>(r.earlier_runs_processed));
  }
  std::printf(
      "  skipped as duplicates   %llu\n"
      "  invoices written        %lld   (orders invoiced twice: %lld)\n"
      "verdict: %s\n",
      static_cast<unsigned long long>(r.skipped_duplicates), static_cast<long long>(r.invoices),
      static_cast<long long>(r.duplicates_found),
      r.ok() ? "ok: invoices == orders, no order invoiced twice"
             : "FAILED: invoices != orders or an order was invoiced twice");
}

nlohmann::json to_json(const PipelineReport& r, const DemoArgs& args, const std::string& store,
                       const std::string& transport) {
  return {{"orders", r.orders},
          {"published", r.published},
          {"publish_retries", r.publish_retries},
          {"deliveries", r.deliveries},
          {"redeliveries", r.redeliveries},
          {"duplicates", r.duplicates},
          {"consumer_restarts", r.consumer_restarts},
          {"processed", r.processed},
          {"earlier_runs_processed", r.earlier_runs_processed},
          {"skipped_duplicates", r.skipped_duplicates},
          {"invoices", r.invoices},
          {"duplicates_found", r.duplicates_found},
          {"faults", args.faults},
          {"seed", args.seed},
          {"store", store},
          {"transport", transport},
          {"seconds", r.seconds},
          {"ok", r.ok()}};
}

void run_demo(const DemoArgs& args) {
  const auto faults = examples::parse_fault_level(args.faults);
  if (!faults) {
    throw UsageError("demo: --faults '" + args.faults + "' is not none, some or heavy");
  }
  if (args.orders == 0 || args.orders > kMaxDemoOrders) {
    throw UsageError("demo: --orders is " + std::to_string(args.orders) + "; place 1 to " +
                     std::to_string(kMaxDemoOrders) + " orders");
  }
  if (args.transport_given && args.transport.empty()) {
    throw InvalidInputError(
        "demo: the transport URL is empty; pass a broker's (e.g. "
        "amqp://user:password@127.0.0.1:5672/vhost?exchange=orders), or leave --transport out "
        "for the in-process transport");
  }
  if (args.store_given && args.store.empty()) {
    throw InvalidInputError(
        "demo: the store URL is empty; pass one, or leave --store out for a SQLite file in "
        "--dir");
  }
  std::unique_ptr<TempDir> temp;
  std::string store = args.store;
  if (store.empty()) {
    std::filesystem::path dir = args.dir;
    if (dir.empty()) {
      temp = std::make_unique<TempDir>();
      dir = temp->path();
    }
    store = "sqlite://" + std::filesystem::absolute(dir / "docket-demo.db").string();
  }
  const std::string transport =
      args.transport.empty() ? std::string() : printable_transport_url(args.transport);
  const bool terminal = !args.json && isatty(STDOUT_FILENO) == 1;
  // The header waits for the pipeline's first order placed: a store it refuses (a URL no
  // provider opens, a server that does not answer, which a document store's set-up
  // never asks) then prints nothing but the refusal.
  bool started = false;
  const auto start = [&] {
    if (!args.json && !started && transport.empty()) {
      std::printf(
          "docket demo: %zu orders -> outbox -> relay -> in-process transport (faults: %s, "
          "seed %llu) -> inbox -> invoices\n",
          args.orders, args.faults.c_str(), static_cast<unsigned long long>(args.seed));
    } else if (!args.json && !started) {
      std::printf(
          "docket demo: %zu orders -> outbox -> relay -> %s (destination %s; billing crashes "
          "midway: %s) -> inbox -> invoices\n",
          args.orders, transport.c_str(), examples::demo_destination(store).c_str(),
          args.faults == "none" ? "no" : "yes");
    }
    started = true;
  };
  const PipelineReport report = examples::run_order_pipeline({.orders = args.orders,
                                                              .store_url = store,
                                                              .faults = *faults,
                                                              .seed = args.seed,
                                                              .transport_url = args.transport},
                                                             [&](const PipelineProgress& p) {
                                                               if (p.placed == 0) {
                                                                 return;
                                                               }
                                                               start();
                                                               if (!args.json) {
                                                                 show_progress(p, terminal);
                                                               }
                                                             });
  start();
  if (args.json) {
    std::cout << to_json(report, args, printable_store_url(store), transport).dump() << '\n';
  } else {
    print_summary(report, printable_store_url(store), transport);
  }
  std::cout.flush();
  if (!report.ok()) {
    throw Error("demo: " + std::to_string(report.invoices) + " invoices for " +
                std::to_string(report.orders) + " orders, " +
                std::to_string(report.duplicates_found) +
                " invoiced twice: the effectively-once promise did not hold");
  }
}

// The example URL of each provider with order services, joined with ", ".
std::string store_examples() {
  std::string text;
  for (const examples::DemoProviderEntry& entry : examples::demo_providers()) {
    text += (text.empty() ? "" : ", ") + std::string(entry.provider->example_url);
  }
  return text;
}

}  // namespace

void add_demo_command(CLI::App& app) {
  auto args = std::make_shared<DemoArgs>();
  CLI::App* demo = app.add_subcommand(
      "demo",
      "Run the order pipeline: outbox -> relay -> faulty transport -> inbox; check that every "
      "order is invoiced exactly once.");
  demo->add_option("--orders", args->orders, "Orders to place")
      ->check(whole_count())
      ->capture_default_str();
  demo->add_option("--store", args->store,
                   "Store URL: " + store_examples() + " (default: a SQLite file in --dir)");
  demo->add_option("--dir", args->dir,
                   "Directory for the SQLite file, kept afterwards (default: a temporary "
                   "directory, removed)");
  demo->add_option("--transport", args->transport,
                   "Broker URL to run the pipeline across instead of the in-process transport: "
                   "amqp://user:password@host:port/vhost?exchange=name (RabbitMQ), "
                   "nats://user:password@host:port?stream=S&subject=docket-demo.> (NATS "
                   "JetStream), pubsub://host:port?project=P (Pub/Sub); the orders go to the "
                   "destination docket-demo.<hash of the store URL>.orders, billing reads it as "
                   "group " +
                       std::string(examples::kBillingConsumer));
  demo->add_option("--faults", args->faults,
                   "Transport faults: none, some or heavy (across a broker: its own, and "
                   "billing's crash midway unless none)")
      ->capture_default_str()
      ->check(CLI::IsMember({"none", "some", "heavy"}));
  demo->add_option("--seed", args->seed, "Seed of the injected faults")
      ->check(whole_count())
      ->capture_default_str();
  demo->add_flag("--json", args->json,
                 "Print one JSON object on one line: orders, published, deliveries, "
                 "redeliveries, duplicates, processed, earlier_runs_processed, "
                 "skipped_duplicates, invoices, "
                 "duplicates_found, ok, ...");
  demo->get_option("--dir")->excludes(demo->get_option("--store"));
  demo->callback([args, demo] {
    args->store_given = demo->get_option("--store")->count() > 0;
    args->transport_given = demo->get_option("--transport")->count() > 0;
    run_demo(*args);
  });
}

}  // namespace docket::tool
