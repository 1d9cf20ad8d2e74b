#include "dashboard/dashboard_command.h"

#include <pthread.h>

#include <csignal>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "dashboard/dashboard_access.h"
#include "dashboard/dashboard_api.h"
#include "dashboard/dashboard_site.h"
#include "dashboard/http_server.h"
#include "docket/core/error.h"
#include "docket/stores/printable_store_url.h"
#include "listen_address.h"
#include "outbox_command_support.h"
#include "usage_error.h"

namespace docket::tool {
namespace {

// Worker threads answering requests: the page polls five paths every few seconds.
constexpr int kDashboardThreads = 4;

struct DashboardArgs {
  std::string store;
  std::optional<std::string> events;
  std::string listen = "127.0.0.1:8088";
  std::optional<std::string> token;
};

// SIGINT, SIGTERM and SIGHUP blocked on this thread (and so on every thread it starts,
// the server's included) while it lives, for wait() to take them; the mask restored
// after.
class StopSignals {
 public:
  StopSignals() {
    sigemptyset(&set_);
    sigaddset(&set_, SIGINT);
    sigaddset(&set_, SIGTERM);
    sigaddset(&set_, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &set_, &previous_);
  }
  ~StopSignals() { pthread_sigmask(SIG_SETMASK, &previous_, nullptr); }
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  // Waits for one of them.
  void wait() const {
    int signal = 0;
    sigwait(&set_, &signal);
  }

 private:
  sigset_t set_{};
  sigset_t previous_{};
};

void run_dashboard(const DashboardArgs& args) {
  // Every check of the command line before the store is opened.
  const ListenAddress listen = parse_listen_address(args.listen, "dashboard", "127.0.0.1:8088");
  if (args.token) {
    check_dashboard_token(*args.token);
  } else if (!listen.loopback) {
    throw UsageError("dashboard: --listen " + args.listen +
                     " is not a loopback address, so anyone who reaches it could act on the "
                     "store; pass --token T (16 to 256 characters of A-Z a-z 0-9 . _ ~ -, e.g. "
                     "`openssl rand -hex 32`), or listen on 127.0.0.1");
  }
  // A URL docket cannot use is refused now (exit 1); a store that cannot be reached now
  // is shown by the page, which reads it again at every refresh.
  try {
    open_shared_outbox("dashboard", args.store);
  } catch (const InfrastructureError& error) {
    std::cerr << "docket dashboard: the store cannot be read now (" << error.what()
              << "); the page shows this until it can\n";
  }
  const DashboardApi api(args.store, args.events);
  DashboardAccess access(listen, args.token);
  DashboardSite site(access, api);
  const StopSignals signals;
  std::optional<HttpServer> server;
  try {
    server.emplace(listen, kDashboardThreads,
                   [&site](const HttpRequest& request) { return site.handle(request); });
  } catch (const InfrastructureError& error) {
    throw InfrastructureError(std::string("dashboard: ") + error.what());
  } catch (const ConfigurationError& error) {
    throw ConfigurationError(std::string("dashboard: ") + error.what());
  }
  access.set_port(server->port());
  std::cout << "docket dashboard: serving http://" << listen.host << ":" << server->port()
            << "/ for " << printable_store_url(args.store)
            << (args.token ? " (open /?token=TOKEN once to sign in)" : "") << "; stop with Ctrl-C"
            << std::endl;
  signals.wait();
  server.reset();  // waits for the requests in flight
  std::cout << "docket dashboard: stopped" << std::endl;
}

}  // namespace

void add_dashboard_command(CLI::App& app) {
  auto args = std::make_shared<DashboardArgs>();
  CLI::App* cmd = app.add_subcommand(
      "dashboard",
      "Serve a page showing the outbox by status and destination, parked messages (replay, "
      "skip), failed claim inbox entries (retry), sagas by status and projections' lag, "
      "refreshed live. Listens on loopback unless told otherwise; off loopback it needs "
      "--token. Runs until Ctrl-C.");
  cmd->add_option("--store", args->store, "Store URL, e.g. sqlite:///var/lib/app/app.db")
      ->required();
  cmd->add_option("--events", args->events,
                  "The event store URL the projections read (default: --store)");
  cmd->add_option("--listen", args->listen,
                  "HOST:PORT to listen on: 127.0.0.1:8088, 0.0.0.0:8088 (off loopback: with "
                  "--token); port 0 picks a free one")
      ->capture_default_str();
  cmd->add_option("--token", args->token,
                  "A secret every request must carry (cookie set by visiting /?token=T, or "
                  "\"Authorization: Bearer T\"); required off loopback");
  cmd->callback([args] { run_dashboard(*args); });
}

}  // namespace docket::tool
