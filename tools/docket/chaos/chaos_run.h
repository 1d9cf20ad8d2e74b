// `docket chaos`: the order pipeline's producer, relay and consumer as separate
// processes on a real store, SIGKILLed at random moments and started again, the
// store server's sessions dropped and the server crashed when allowed (on a provider
// with server faults, server_faults.h: PostgreSQL's); then, once everything placed has
// drained, the run checked with the store's own reads (chaos_check.h).
//
// Between the relay and the consumer: the run's own queue (chaos_queue.h), or a broker
// (options.transport_url), to which the run's messages go on a destination of its own,
// "docket-chaos.<run>", read by the consumer group "billing", whose queue the run declares
// before any worker starts and removes once the run is ok. With broker restarts allowed
// (a transport whose broker is on this machine, chaos_transport.h), every tenth gap also
// restarts the broker.
//
// With a clock skew, a fourth worker: a second relay whose clock runs ahead by the skew
// (more than a lease, kChaosLease, to mean anything), claiming the same outbox rows as
// the first, so that a store whose leases were on the claimer's clock would see it take
// over the first relay's live leases.
//
// One run: start the three workers; N times, wait a random gap (seeded), kill a random
// worker, start it again (every fifth gap, with server faults allowed, also drop the
// workers' sessions or crash the server, alternately); stop the
// producer; wait until every order placed is invoiced, the queue empty and the outbox
// published (or the drain timeout); stop the others; check. A worker that exits on its
// own (its store failed under it) is started again after a short pause, as a
// supervisor would; one that keeps failing ends the run with its log's last lines.
//
// Thread-safety: run_chaos() runs on the calling thread and its child processes.
#ifndef DOCKET_TOOLS_DOCKET_CHAOS_CHAOS_RUN_H_
#define DOCKET_TOOLS_DOCKET_CHAOS_CHAOS_RUN_H_

#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "chaos_check.h"
#include "chaos_queue.h"

namespace docket::tool {

struct ChaosOptions {
  std::string store_url;
  int kills = 10;
  std::uint64_t seed = 1;
  std::uint64_t orders_per_second = 100;
  bool allow_server_restart = false;  // a provider with server faults only (server_faults.h)
  std::string transport_url{};        // empty: the run's own queue
  bool allow_broker_restart = false;  // with a transport whose broker can restart
  // Above 0: a second relay runs beside the first, its clock this far ahead, killed
  // like the others (ChaosRole::kSkewedRelay).
  std::chrono::seconds clock_skew{0};

  std::chrono::seconds drain_timeout{120};
  // Each kill comes after a gap drawn uniformly from [min_gap, max_gap].
  std::chrono::milliseconds min_gap{100};
  std::chrono::milliseconds max_gap{600};
};

struct ChaosReport {
  std::string run;                // the run's order id prefix
  int kills = 0;                  // SIGKILLs survived
  std::array<int, 4> kills_of{};  // ... by role, in kAllChaosRoles order
  int worker_exits = 0;           // exits of a worker on its own, each started again
  int connection_drops = 0;       // server faults: times the workers' sessions were ended
  int server_crashes = 0;         // server faults: times the server was crashed
  int broker_restarts = 0;        // times the broker was restarted
  // What the store's server says an acknowledged commit survives (registry.h's
  // durability); empty: its provider states nothing beyond its documentation.
  std::string store_durability;
  bool drained = false;  // everything placed drained before the timeout
  QueueCounters queue;
  ChaosCheck check;
  double seconds = 0;
  std::chrono::seconds clock_skew{0};  // the skewed relay's, when there was one
  std::string destination;             // across a broker: the run's destination
  std::string work_dir;  // the queue and the workers' logs; removed when the run is ok

  // Faults of the run's own making, on which a worker may end on its own.
  int faults_made() const noexcept { return connection_drops + server_crashes + broker_restarts; }
  // Workers ended on their own although the run made no fault: something failed under
  // them (their log says what), and a run that carried on regardless proves nothing.
  bool workers_failed() const noexcept { return worker_exits > 0 && faults_made() == 0; }
  // Drained, every check holds, something was placed to check, and no worker failed
  // but under a fault the run made: a run that placed no order, or whose workers kept
  // failing, is never ok however empty its checks come back.
  bool ok() const noexcept {
    return drained && check.ok() && check.orders > 0 && !workers_failed();
  }
};

// One line per event (a kill, a restart, a fault, the drain), for a progress display.
using ChaosLog = std::function<void(std::string_view line)>;

// Throws ConfigurationError for a store separate processes cannot share
// (shared_store.h), a store the order services cannot run on, server
// faults asked of a store whose provider has none or whose server is not on this
// machine, a transport URL no transport of this build opens, broker restarts asked of
// a transport without them or of a broker not on this machine, or a build with no
// provider keeping the queue (chaos_queue.h); InfrastructureError when the store
// cannot be read once set up (before any worker starts), a worker cannot start or keeps
// failing, or the broker does not come back after a restart. Every refusal comes
// before anything is written.
ChaosReport run_chaos(const ChaosOptions& options, const ChaosLog& log);

}  // namespace docket::tool

#endif  // DOCKET_TOOLS_DOCKET_CHAOS_CHAOS_RUN_H_
