#include "chaos_run.h"

#include <signal.h>
#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <random>
#include <thread>
#include <vector>

#include "chaos_provider.h"
#include "chaos_transport.h"
#include "chaos_worker.h"
#include "child_process.h"
#include "delivery_tally.h"
#include "docket/core/error.h"
#include "docket/core/uuid.h"
#include "docket/stores/open_store.h"
#include "docket/stores/printable_store_url.h"
#include "docket/transports/open_transport.h"
#include "providers/registry.h"
#include "server_faults.h"
#include "services_for_store.h"
#include "shared_store.h"
#include "transports/transport_registration.h"

namespace docket::tool {
namespace {

using Clock = std::chrono::steady_clock;

constexpr std::chrono::milliseconds kTick{10};
constexpr std::chrono::milliseconds kRestartPause{200};
constexpr std::chrono::milliseconds kDrainPoll{250};
constexpr std::chrono::seconds kServerRecovery{120};
// A worker that ends on its own waits before it starts again, doubling up to the cap
// while it keeps ending within kShortLife (its server still recovering, say).
constexpr std::chrono::milliseconds kRestartPauseCap{5000};
constexpr std::chrono::seconds kShortLife{2};
// Exits on their own a run tolerates before it gives up on a worker: server faults end
// the workers' sessions, and a worker may fail again while the server recovers.
constexpr int kOwnExitsPerFault = 10;
constexpr int kOwnExitsAllowance = 20;
// Broker restarts: one every kBrokerRestartEvery gaps.
constexpr int kBrokerRestartEvery = 10;
constexpr const char* kTransportEnv = "DOCKET_CHAOS_TRANSPORT=";

std::string make_work_dir() {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern =
      std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/docket-chaos-XXXXXX";
  if (mkdtemp(pattern.data()) == nullptr) {
    throw InfrastructureError("chaos: could not create a directory for the run at " + pattern +
                              "; set TMPDIR to a writable directory");
  }
  return pattern;
}

// The last `count` lines of the file at `path`.
std::string tail_of(const std::string& path, std::size_t count) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) {
    lines.push_back(std::move(line));
  }
  std::string tail;
  for (std::size_t i = lines.size() > count ? lines.size() - count : 0; i < lines.size(); ++i) {
    tail += "  " + lines[i] + "\n";
  }
  return tail;
}

// The three worker processes, each started again when it ends, unless stopped.
class Workers {
 public:
  // The URLs reach the workers in their environment, never their command line, which
  // any user of the machine may read.
  Workers(const ChaosOptions& options, std::string store_url, std::string work_dir, std::string run,
          std::string destination, const ChaosLog& log)
      : executable_(current_executable()),
        environment_{"DOCKET_CHAOS_STORE=" + std::move(store_url)},
        work_dir_(std::move(work_dir)),
        run_(std::move(run)),
        destination_(std::move(destination)),
        rate_(std::to_string(options.orders_per_second)),
        clock_skew_(std::to_string(options.clock_skew.count())),
        log_(log) {
    if (!options.transport_url.empty()) {
      environment_.push_back(kTransportEnv + options.transport_url);
    }
  }

  void start(ChaosRole role) {
    Slot& slot = slot_of(role);
    slot.restart_at.reset();
    slot.started = Clock::now();
    std::vector<std::string> command{executable_, "chaos-worker",
                                     "--role",    std::string(role_name(role)),
                                     "--queue",   work_dir_ + "/queue.db",
                                     "--run",     run_,
                                     "--rate",    rate_};
    if (!destination_.empty()) {
      command.insert(command.end(), {"--destination", destination_, "--tally-dir", work_dir_});
    }
    if (role == ChaosRole::kSkewedRelay) {
      command.insert(command.end(), {"--clock-skew-seconds", clock_skew_});
    }
    slot.process = std::make_unique<ChildProcess>(std::move(command), log_path(role), environment_);
  }

  // SIGKILLs the worker and starts it again; false when it was not running.
  bool kill(ChaosRole role) {
    Slot& slot = slot_of(role);
    if (!slot.process || slot.process->poll()) {
      return false;
    }
    const pid_t pid = slot.process->pid();
    slot.process->stop(SIGKILL);
    start(role);
    log_("killed the " + std::string(role_name(role)) + " (pid " + std::to_string(pid) +
         "), started it again (pid " + std::to_string(slot.process->pid()) + ")");
    return true;
  }

  // Stops the worker for good: SIGTERM, then waits for it.
  void stop(ChaosRole role) {
    Slot& slot = slot_of(role);
    slot.stopped = true;
    slot.restart_at.reset();
    if (slot.process) {
      slot.process->stop(SIGTERM);
    }
  }

  // Starts again, after a pause, each worker that ended on its own. Throws
  // InfrastructureError, with the worker's last log lines, past `allowed` such exits.
  void supervise(int allowed) {
    for (const ChaosRole role : kAllChaosRoles) {
      Slot& slot = slot_of(role);
      if (slot.stopped || !slot.process) {
        continue;
      }
      if (slot.restart_at) {
        if (Clock::now() >= *slot.restart_at) {
          start(role);
        }
        continue;
      }
      if (const std::optional<ChildExit> exit = slot.process->poll()) {
        if (++own_exits_ > allowed) {
          throw InfrastructureError("chaos: the " + std::string(role_name(role)) +
                                    " keeps failing (" + std::to_string(own_exits_) +
                                    " exits, last: " + exit->describe() + "); " + log_path(role) +
                                    " ends with:\n" + tail_of(log_path(role), 8));
        }
        log_("the " + std::string(role_name(role)) + " ended on its own (" + exit->describe() +
             "); starting it again");
        slot.pause = Clock::now() - slot.started < kShortLife
                         ? std::min<std::chrono::milliseconds>(slot.pause * 2, kRestartPauseCap)
                         : kRestartPause;
        slot.restart_at = Clock::now() + slot.pause;
      }
    }
  }

  int own_exits() const noexcept { return own_exits_; }

 private:
  struct Slot {
    std::unique_ptr<ChildProcess> process;
    bool stopped = false;
    std::optional<Clock::time_point> restart_at;
    Clock::time_point started;
    std::chrono::milliseconds pause{kRestartPause / 2};  // the last pause before a restart
  };

  Slot& slot_of(ChaosRole role) { return slots_[static_cast<std::size_t>(role)]; }
  std::string log_path(ChaosRole role) const {
    return work_dir_ + "/" + std::string(role_name(role)) + ".log";
  }

  std::string executable_;
  std::vector<std::string> environment_;
  std::string work_dir_;
  std::string run_;
  std::string destination_;
  std::string rate_;
  std::string clock_skew_;
  const ChaosLog& log_;
  std::array<Slot, std::size(kAllChaosRoles)> slots_;
  int own_exits_ = 0;
};

// The faults --allow-server-restart asks of the store `url`'s server: those of the URL's
// provider (chaos_provider.h), with its names for the run's log. Throws
// ConfigurationError, naming the servers this build can fault, when its provider has
// none, and what the provider throws for a server it cannot fault.
struct FaultedServer {
  std::unique_ptr<ServerFaults> faults;
  const ChaosProvider* provider = nullptr;
};

FaultedServer fault_server(std::string_view url, std::string_view run) {
  const providers::ProviderRegistration* store = providers::Registry::builtin().find(url);
  std::string servers;
  for (const ChaosProviderEntry& entry : chaos_providers()) {
    if (entry.provider->server_faults == nullptr) {
      continue;
    }
    if (store != nullptr && entry.name == store->name) {
      return {entry.provider->server_faults(url, run), entry.provider};
    }
    servers += (servers.empty() ? "" : " or ") + std::string(entry.provider->server_name);
  }
  if (servers.empty()) {
    throw ConfigurationError(
        "chaos: --allow-server-restart restarts the store's server, and no provider of this "
        "build of docket has server faults (leave the option out)");
  }
  throw ConfigurationError("chaos: --allow-server-restart restarts a " + servers +
                           " server; the store is not one (leave the option out)");
}

// What a run across a broker uses of its transport's chaos part (chaos_transport.h):
// nullptr when the transport lends none.
const ChaosTransport* chaos_part_of(std::string_view transport_url) {
  const transports::TransportRegistration* transport = transports::find_transport(transport_url);
  if (transport == nullptr) {
    return nullptr;
  }
  for (const ChaosTransportEntry& entry : chaos_transports()) {
    if (entry.name == transport->name) {
      return entry.transport;
    }
  }
  return nullptr;
}

// The restarts --allow-broker-restart asks of the broker of `url`. Throws
// ConfigurationError, naming the brokers this build can restart, when its transport
// has none, and what the transport throws for a broker it cannot restart.
std::unique_ptr<BrokerRestarts> restarts_of(std::string_view url) {
  const ChaosTransport* part = chaos_part_of(url);
  if (part != nullptr && part->broker_restarts != nullptr) {
    return part->broker_restarts(url);
  }
  std::string brokers;
  for (const ChaosTransportEntry& entry : chaos_transports()) {
    if (entry.transport->broker_restarts != nullptr) {
      brokers += (brokers.empty() ? "" : " or ") + std::string(entry.transport->broker_name);
    }
  }
  throw ConfigurationError(
      brokers.empty()
          ? "chaos: --allow-broker-restart restarts the transport's broker, and no transport of "
            "this build of docket can restart its broker (leave the option out)"
          : "chaos: --allow-broker-restart restarts a " + brokers + " broker on this machine; " +
                printable_transport_url(url) + " is not one (leave the option out)");
}

// Supervises `workers` until `deadline`.
void supervise_until(Workers& workers, Clock::time_point deadline, int allowed) {
  while (Clock::now() < deadline) {
    workers.supervise(allowed);
    std::this_thread::sleep_for(kTick);
  }
}

// Supervises `workers` until the crashed server accepts sessions again, so that the
// faults and reads that follow meet a server, not its recovery.
void await_server(Workers& workers, const FaultedServer& server, int allowed) {
  const auto deadline = Clock::now() + kServerRecovery;
  while (!server.faults->accepting()) {
    if (Clock::now() >= deadline) {
      throw InfrastructureError("chaos: the " + std::string(server.provider->server_name) +
                                " server did not accept sessions within " +
                                std::to_string(kServerRecovery.count()) +
                                " s of its crash; see its log");
    }
    supervise_until(workers, Clock::now() + kDrainPoll, allowed);
  }
}

}  // namespace

ChaosReport run_chaos(const ChaosOptions& options, const ChaosLog& log) {
  const auto started = Clock::now();
  ChaosReport report;
  report.run = "chaos" + Uuid::v4().to_string().substr(0, 8);
  report.clock_skew = options.clock_skew;

  // A store the three processes cannot share would leave each with a database of its
  // own: refused before anything else.
  require_shared_store("chaos", options.store_url,
                       "runs its producer, relay and consumer as separate processes on one store",
                       "sqlite:///tmp/chaos.db");
  FaultedServer server;
  if (options.allow_server_restart) {
    server = fault_server(options.store_url, report.run);
  }
  // Stated before the run, so that what the run finds reads against what the server
  // promises (Redis with appendfsync everysec loses acknowledged commits to a power
  // loss, not to a crash of its process).
  if (const auto* provider = providers::Registry::builtin().find(options.store_url);
      provider != nullptr && provider->durability != nullptr) {
    report.store_durability = provider->durability(options.store_url);
    log("the store's durability: " + report.store_durability);
  }
  // Refusals of the transport and its broker before anything is written: a URL no
  // transport opens, restarts a broker cannot have.
  std::unique_ptr<Transport> transport;
  std::unique_ptr<BrokerRestarts> broker;
  if (!options.transport_url.empty()) {
    transport = open_transport(options.transport_url);
    report.destination = "docket-chaos." + report.run;
    if (options.allow_broker_restart) {
      broker = restarts_of(options.transport_url);
    }
  } else if (options.allow_broker_restart) {
    throw ConfigurationError(
        "chaos: --allow-broker-restart restarts the broker of --transport, and no --transport "
        "was given (add one, e.g. --transport amqp://user:password@127.0.0.1/vhost?exchange=x)");
  }

  // Set-up (after every refusal, before any worker starts), so that none races another to create
  // the schema.
  const auto services = examples::services_for_store(options.store_url);
  services->create_tables();
  open_outbox_store(options.store_url)->migrate();
  open_inbox_store(options.store_url)->migrate();
  // A read of what the drain and the checks read, before any worker starts: a store
  // whose set-up sends nothing (a document store creates nothing up front) is found
  // unreachable here, in seconds, not by a drain that takes every failed read for a
  // server recovering from a crash of the run's own making.
  try {
    chaos_progress(*services, report.run);
  } catch (const InfrastructureError& error) {
    throw InfrastructureError("chaos: the store " + printable_store_url(options.store_url) +
                              " cannot be read, so no worker was started: " + error.what());
  }
  report.work_dir = make_work_dir();
  std::unique_ptr<ChaosQueue> queue;
  std::optional<DeliveryTally> tally;
  if (transport) {
    // The group's queue before any message: a broker keeps for a group only what was
    // published once it existed.
    transport->subscribe({.destination = report.destination, .group = std::string(kChaosGroup)})
        .close();
    tally.emplace(report.work_dir);
  } else {
    queue = open_chaos_queue(report.work_dir + "/queue.db");
  }
  const auto counters = [&] { return queue ? queue->counters() : tally->read(); };
  Workers workers(options, server.faults ? server.faults->worker_url() : options.store_url,
                  report.work_dir, report.run, report.destination, log);
  // The roles this run kills: every run's, and the skewed relay when there is one.
  std::vector<ChaosRole> roles(std::begin(kChaosRoles), std::end(kChaosRoles));
  if (options.clock_skew.count() > 0) {
    roles.push_back(ChaosRole::kSkewedRelay);
  }
  for (const ChaosRole role : roles) {
    workers.start(role);
  }
  log("run " + report.run + ": producer, relay and consumer started" +
      (options.clock_skew.count() > 0 ? ", and a second relay whose clock runs " +
                                            std::to_string(options.clock_skew.count()) + " s ahead"
                                      : std::string()) +
      (transport ? " across " + transport->describe() + ", destination " + report.destination
                 : std::string()) +
      "; their logs and " + (transport ? "counts" : "queue") + " in " + report.work_dir);

  std::mt19937_64 random(options.seed);
  std::uniform_int_distribution<std::int64_t> gap(options.min_gap.count(), options.max_gap.count());
  std::uniform_int_distribution<std::size_t> victim(0, roles.size() - 1);
  const int allowed = kOwnExitsAllowance + kOwnExitsPerFault * options.kills;
  for (int slot = 1; report.kills < options.kills; ++slot) {
    supervise_until(workers, Clock::now() + std::chrono::milliseconds(gap(random)), allowed);
    if (server.faults && slot % 5 == 0) {
      const std::string server_name(server.provider->server_name);
      if ((slot / 5) % 2 == 1) {
        const std::int64_t dropped = server.faults->drop_sessions();
        ++report.connection_drops;
        log("dropped the workers' " + std::to_string(dropped) + " " + server_name + " sessions");
      } else if (server.faults->crash_server()) {
        ++report.server_crashes;
        log("crashed the " + server_name + " server (" +
            std::string(server.provider->crash_effect) + ")");
        await_server(workers, server, allowed);
      }
    }
    if (broker && slot % kBrokerRestartEvery == 0) {
      const auto restart_started = Clock::now();
      broker->restart();
      ++report.broker_restarts;
      const auto seconds =
          std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - restart_started);
      const ChaosTransport* part = chaos_part_of(options.transport_url);
      log("restarted the " + std::string(part->broker_name) + " broker (" +
          std::string(part->restart_effect) + ") in " + std::to_string(seconds.count()) + " ms");
    }
    const ChaosRole role = roles[victim(random)];
    if (workers.kill(role)) {
      ++report.kills;
      ++report.kills_of[static_cast<std::size_t>(role)];
    }
  }

  workers.stop(ChaosRole::kProducer);
  log("producer stopped; draining");
  const auto deadline = Clock::now() + options.drain_timeout;
  while (!report.drained && Clock::now() < deadline) {
    supervise_until(workers, Clock::now() + kDrainPoll, allowed);
    try {
      const ChaosProgress progress = chaos_progress(*services, report.run);
      if (progress.invoiced < progress.orders || counters().depth > 0) {
        continue;
      }
      report.check = check_chaos_run(options.store_url, *services, report.run);
      report.drained = report.check.unpublished == 0;
    } catch (const InfrastructureError& error) {
      // The server is still recovering from a crash of this run's making: read again
      // at the next poll; the drain timeout bounds the wait.
      log(std::string("drain: store not readable yet: ") + error.what());
    }
  }
  workers.stop(ChaosRole::kRelay);
  workers.stop(ChaosRole::kSkewedRelay);
  workers.stop(ChaosRole::kConsumer);
  report.check = check_chaos_run(options.store_url, *services, report.run);
  report.queue = counters();
  report.worker_exits = workers.own_exits();
  report.seconds = std::chrono::duration<double>(Clock::now() - started).count();
  if (report.ok()) {
    // The group's queue holds at most copies the inbox would absorb; the run's work dir
    // nothing the report does not say.
    if (const ChaosTransport* part = chaos_part_of(options.transport_url);
        part != nullptr && part->remove_group != nullptr) {
      part->remove_group(options.transport_url, report.destination, kChaosGroup);
    }
    std::filesystem::remove_all(report.work_dir);
  }
  return report;
}

}  // namespace docket::tool
