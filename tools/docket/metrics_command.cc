// docket metrics: the store gauges over HTTP (metrics_command.h). Every check of the
// command line is made before a store is opened; the address is bound once by a probe
// of our own first, so that a port in use, or an address not of this machine, is
// reported by its cause rather than by the HTTP server's generic refusal.
#include "metrics_command.h"

#include <prometheus/exposer.h>

#include <csignal>
#include <cstdint>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "docket/core/error.h"
#include "docket/prometheus/store_gauges.h"
#include "docket/stores/open_store.h"
#include "docket/stores/printable_store_url.h"
#include "listen_address.h"
#include "shared_store.h"
#include "usage_error.h"

namespace docket::tool {
namespace {

struct MetricsArgs {
  std::string store;
  std::string listen = "127.0.0.1:9464";
  std::vector<std::string> projections;
};

// Opens each store `url` offers of the four the gauges read; a store the provider does
// not offer is left out. Throws what opening the first threw when it offers none.
struct MetricsStores {
  std::unique_ptr<OutboxStore> outbox;
  std::unique_ptr<ClaimInboxStore> claim_inbox;
  std::unique_ptr<CheckpointStore> checkpoints;
  std::unique_ptr<EventStore> events;
};

template <class Store, class Open>
std::unique_ptr<Store> open_if_offered(Open open, const std::string& url,
                                       std::exception_ptr& first_refusal) {
  try {
    return open(url, SystemClock::instance());
  } catch (const ConfigurationError&) {
    if (!first_refusal) {
      first_refusal = std::current_exception();
    }
    return nullptr;
  }
}

MetricsStores open_metrics_stores(const std::string& url) {
  std::exception_ptr refusal;
  MetricsStores stores{
      .outbox = open_if_offered<OutboxStore>(&open_outbox_store, url, refusal),
      .claim_inbox = open_if_offered<ClaimInboxStore>(&open_claim_inbox_store, url, refusal),
      .checkpoints = open_if_offered<CheckpointStore>(&open_checkpoint_store, url, refusal),
      .events = open_if_offered<EventStore>(&open_event_store, url, refusal)};
  if (!stores.outbox && !stores.claim_inbox && !stores.checkpoints && !stores.events) {
    std::rethrow_exception(refusal);
  }
  return stores;
}

void run_metrics(const MetricsArgs& args) {
  const ListenAddress address = parse_listen_address(args.listen, "metrics", "127.0.0.1:9464");
  require_shared_store("metrics", args.store, "reads the stores a service's processes write",
                       "sqlite:///var/lib/app/app.db");
  MetricsStores stores = open_metrics_stores(args.store);
  auto gauges =
      std::make_shared<StoreGauges>(StoreGaugeSources{.outbox = stores.outbox.get(),
                                                      .claim_inbox = stores.claim_inbox.get(),
                                                      .checkpoints = stores.checkpoints.get(),
                                                      .events = stores.events.get()},
                                    StoreGaugeOptions{.projections = args.projections});
  if (const std::optional<std::string> cause = why_cannot_listen(address)) {
    throw ConfigurationError("metrics: cannot listen on " + args.listen + ": " + *cause);
  }
  // SIGINT and SIGTERM are taken by sigwait below; blocked before the HTTP server's
  // threads start, so that they inherit the mask and the signal reaches this thread.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  std::optional<prometheus::Exposer> exposer;
  const std::string bind = address.host + ":" + std::to_string(address.port);
  try {
    exposer.emplace(bind, 2);
  } catch (const std::exception& error) {
    throw ConfigurationError("metrics: cannot listen on " + args.listen + ": " + error.what());
  }
  exposer->RegisterCollectable(gauges);
  const std::vector<int> ports = exposer->GetListeningPorts();
  const int port = ports.empty() ? address.port : ports.front();
  std::cout << "docket metrics: serving the store gauges of " << printable_store_url(args.store)
            << " at http://" << address.host << ':' << port << "/metrics (SIGINT or SIGTERM stops)"
            << std::endl;
  int received = 0;
  sigwait(&stop_signals, &received);
  std::cout << "docket metrics: stopped by signal " << received << std::endl;
}

}  // namespace

void add_metrics_command(CLI::App& app) {
  auto args = std::make_shared<MetricsArgs>();
  CLI::App* cmd = app.add_subcommand(
      "metrics",
      "Serve the store gauges (outbox backlog and oldest age, parked messages, claim inbox "
      "entries by status, projection lag) for Prometheus at http://LISTEN/metrics, until "
      "SIGINT or SIGTERM.");
  cmd->add_option("--store", args->store, "Store URL, e.g. sqlite:///var/lib/app/app.db")
      ->required();
  cmd->add_option("--listen", args->listen,
                  "HOST:PORT to serve on (IPv4, [IPv6] or localhost); loopback unless told "
                  "otherwise; port 0: a free one, printed")
      ->default_str("127.0.0.1:9464");
  cmd->add_option("--projection", args->projections,
                  "A whole-feed consumer whose lag to expose; repeatable (none: every "
                  "whole-feed checkpoint with a decimal position)");
  cmd->callback([args] { run_metrics(*args); });
}

}  // namespace docket::tool
