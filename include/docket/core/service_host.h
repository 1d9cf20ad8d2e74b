// One object that runs a service's loops (relays, consumer runners, pull and feed
// consumers: anything with run(std::stop_token)) on threads of their own until the
// service is told to stop, so that a service's main is a few lines:
//
//   docket::ServiceHost host;
//   host.add("relay", relay).add("billing", billing_runner).add("projections", feed);
//   host.run();   // until SIGINT or SIGTERM; then every loop stops and is joined
//
// run() returns once every loop returned after a stop: stop() from any thread, or, with
// handle_signals (the default), SIGINT or SIGTERM. For that run() blocks both signals in
// its own thread before it starts the loops' threads, which inherit the block, and takes
// them with sigtimedwait: call run() from main before the program starts threads of its
// own (or block the signals in them), else the kernel may hand a signal to a thread that
// does not block it and the default action ends the process. With handle_signals off the
// program stops the host itself.
//
// A loop that throws is restarted after a capped, doubling backoff (restart_base up to
// restart_cap, back to restart_base after it ran restart_base without failing); its
// latest error stays in health(). A loop that returns before a stop
// was asked is done (kFinished) and not restarted. health() is for a readiness probe or a
// status endpoint (or, with health_file, a probe in another process): healthy while
// no loop is restarting.
//
// Invariant: loops are added before run(); each runs on exactly one thread, and run()
// joins every thread it started before it returns (also when it throws).
// Thread-safety: add() and run() from one thread; stop() and health() from any.
#ifndef DOCKET_CORE_SERVICE_HOST_H_
#define DOCKET_CORE_SERVICE_HOST_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <utility>
#include <vector>

#include "docket/core/clock.h"

namespace docket {

struct ServiceHostSettings {
  bool handle_signals = true;  // SIGINT and SIGTERM stop the host (see above)
  std::chrono::milliseconds restart_base{std::chrono::milliseconds(100)};
  std::chrono::milliseconds restart_cap{std::chrono::seconds(30)};
  // Where run() keeps health() for a probe in another process (`docket health
  // --host-file`): one JSON object, written when run() starts (a path it cannot write
  // makes run() throw, before any loop starts), every health_interval while it runs, and
  // once more when it returns; empty: no file. A file a host stopped rewriting (it died,
  // or its disk failed) grows old, which is how the probe tells.
  std::string health_file{};
  std::chrono::milliseconds health_interval{std::chrono::seconds(5)};
};

enum class LoopState {
  kStarting,    // added; run() has not started it yet
  kRunning,     // in its run()
  kRestarting,  // threw; waiting out its backoff
  kFinished,    // returned before a stop was asked
  kStopped,     // returned after a stop
};

// "starting", "running", "restarting", "finished" or "stopped".
std::string_view to_string(LoopState state) noexcept;

struct LoopHealth {
  std::string name;
  LoopState state = LoopState::kStarting;
  std::uint64_t restarts = 0;
  std::string last_error{};                  // of its latest failure; empty before any
  std::optional<Timestamp> last_error_at{};  // the system clock at that failure
};

struct HostHealth {
  bool running = false;  // inside run(), before every loop returned
  bool healthy = false;  // running, and no loop is restarting or finished early
  std::vector<LoopHealth> loops;
  // Why the latest rewrite of ServiceHostSettings::health_file failed; empty when it
  // succeeded (or there is no file).
  std::string health_file_error{};
};

class ServiceHost {
 public:
  using Loop = std::function<void(std::stop_token)>;

  // Throws ConfigurationError for a restart_base that is not positive, a restart_cap
  // below it, or a health_interval that is not positive.
  explicit ServiceHost(ServiceHostSettings settings = {});
  ~ServiceHost();  // stops and joins loops still running (an exception in run())
  ServiceHost(const ServiceHost&) = delete;
  ServiceHost& operator=(const ServiceHost&) = delete;

  // Adds a loop under `name` (unique, non-empty: ConfigurationError otherwise, and once
  // run() started).
  ServiceHost& add(std::string name, Loop loop);

  // Adds anything with run(std::stop_token): Relay, ConsumerRunner, PullConsumer,
  // EventFeedConsumer. `runnable` must outlive the host's run().
  template <class Runnable>
  requires requires(Runnable& runnable, std::stop_token stop) { runnable.run(stop); }
  ServiceHost& add(std::string name, Runnable& runnable) {
    return add(std::move(name), Loop([&runnable](std::stop_token stop) { runnable.run(stop); }));
  }

  // See above. Throws ConfigurationError when no loop was added or run() was called
  // before, and InfrastructureError when the health file cannot be written at start.
  void run();

  // Asks every loop to stop and run() to return; safe from any thread, at any time
  // (before run(): run() then returns at once).
  void stop() noexcept;

  // The signal that stopped run(), if one did.
  std::optional<int> stop_signal() const noexcept;

  HostHealth health() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace docket

#endif  // DOCKET_CORE_SERVICE_HOST_H_
