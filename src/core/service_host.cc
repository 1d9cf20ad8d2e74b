#include "docket/core/service_host.h"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>

#include "core/host_health_file.h"
#include "docket/core/error.h"

namespace docket {
namespace {

constexpr std::chrono::milliseconds kSignalPoll{100};

// The text of the exception being handled.
std::string current_error_text() {
  try {
    throw;
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "an exception that is not a std::exception";
  }
}

}  // namespace

std::string_view to_string(LoopState state) noexcept {
  switch (state) {
    case LoopState::kStarting:
      return "starting";
    case LoopState::kRunning:
      return "running";
    case LoopState::kRestarting:
      return "restarting";
    case LoopState::kFinished:
      return "finished";
    case LoopState::kStopped:
      return "stopped";
  }
  return "unknown";
}

struct ServiceHost::State {
  struct Entry {
    Loop loop;
    LoopHealth health;
  };

  ServiceHostSettings settings;
  std::vector<std::unique_ptr<Entry>> entries;  // stable addresses for the threads
  std::stop_source stop;
  mutable std::mutex mutex;  // guards every Entry::health, started, running, signal
  std::condition_variable_any wake;
  bool started = false;
  bool running = false;
  std::optional<int> signal;
  std::vector<std::thread> threads;

  void set_state(Entry& entry, LoopState state) {
    const std::lock_guard lock(mutex);
    entry.health.state = state;
  }

  // One loop's thread: runs it, restarting after a failure, until a stop.
  void run_loop(Entry& entry) {
    const std::stop_token token = stop.get_token();
    std::chrono::milliseconds backoff = settings.restart_base;
    while (!token.stop_requested()) {
      set_state(entry, LoopState::kRunning);
      const auto began = std::chrono::steady_clock::now();
      try {
        entry.loop(token);
        set_state(entry, token.stop_requested() ? LoopState::kStopped : LoopState::kFinished);
        return;
      } catch (...) {
        const std::string error = current_error_text();
        std::unique_lock lock(mutex);
        entry.health.state = LoopState::kRestarting;
        entry.health.last_error = error;
        entry.health.last_error_at = SystemClock::instance().now();
        if (std::chrono::steady_clock::now() - began >= settings.restart_base) {
          backoff = settings.restart_base;  // it ran a while: a failure of its own
        }
        // Interrupted by a stop; nothing else notifies for this predicate.
        wake.wait_for(lock, token, backoff, [] { return false; });
        ++entry.health.restarts;
        backoff = std::min(settings.restart_cap, backoff * 2);
      }
    }
    set_state(entry, LoopState::kStopped);
  }

  // Stops every loop and joins its thread.
  void stop_and_join() {
    stop.request_stop();
    wake.notify_all();
    for (std::thread& thread : threads) {
      if (thread.joinable()) {
        thread.join();
      }
    }
    threads.clear();
    const std::lock_guard lock(mutex);
    running = false;
  }

  // Rewrites the health file with what `health` says now (no file configured: nothing).
  void write_health(const ServiceHost& host) const {
    if (!settings.health_file.empty()) {
      core::write_host_health_file(
          settings.health_file, core::host_health_json(host.health(), SystemClock::instance().now(),
                                                       static_cast<long>(::getpid())));
    }
  }

  // The same once the host runs: a failure leaves the file as it was, so it grows old,
  // which a probe reports, and is kept for health(); the service goes on.
  void keep_health(const ServiceHost& host) {
    std::string error;
    try {
      write_health(host);
    } catch (const InfrastructureError& e) {
      error = e.what();
    }
    const std::lock_guard lock(mutex);
    health_file_error = std::move(error);
  }
  std::string health_file_error;  // guarded by mutex
};

ServiceHost::ServiceHost(ServiceHostSettings settings) : state_(std::make_unique<State>()) {
  if (settings.restart_base <= std::chrono::milliseconds(0) ||
      settings.restart_cap < settings.restart_base) {
    throw ConfigurationError("service host: restart_base " +
                             std::to_string(settings.restart_base.count()) +
                             " ms and restart_cap " + std::to_string(settings.restart_cap.count()) +
                             " ms: the base must be positive and the cap at least the base");
  }
  if (settings.health_interval <= std::chrono::milliseconds(0)) {
    throw ConfigurationError("service host: health_interval is " +
                             std::to_string(settings.health_interval.count()) +
                             " ms; it must be positive");
  }
  state_->settings = std::move(settings);
}

ServiceHost::~ServiceHost() {
  state_->stop_and_join();
}

ServiceHost& ServiceHost::add(std::string name, Loop loop) {
  const std::lock_guard lock(state_->mutex);
  const auto taken = [&] {
    return std::any_of(state_->entries.begin(), state_->entries.end(),
                       [&](const auto& entry) { return entry->health.name == name; });
  };
  if (state_->started || name.empty() || !loop || taken()) {
    throw ConfigurationError("service host: loop '" + name + "' " +
                             (state_->started ? "is added after run() started; add every loop first"
                              : name.empty()  ? "has no name; name it for health() and the logs"
                              : !loop         ? "is empty; pass a callable"
                                      : "is added twice; give each loop a name of its own"));
  }
  state_->entries.push_back(std::make_unique<State::Entry>(
      State::Entry{.loop = std::move(loop), .health = LoopHealth{.name = std::move(name)}}));
  return *this;
}

void ServiceHost::run() {
  State& s = *state_;
  {
    const std::lock_guard lock(s.mutex);
    if (s.started || s.entries.empty()) {
      throw ConfigurationError(s.started ? "service host: run() was called before; a host runs once"
                                         : "service host: run() with no loop; add() the relays "
                                           "and consumers first");
    }
    s.started = true;
    s.running = !s.stop.stop_requested();
  }
  if (s.stop.stop_requested()) {
    return;
  }
  try {
    s.write_health(*this);  // a path it cannot write is found before any loop runs
  } catch (...) {
    const std::lock_guard lock(s.mutex);
    s.running = false;
    throw;
  }
  sigset_t signals;
  sigset_t previous;
  sigemptyset(&signals);
  if (s.settings.handle_signals) {
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &signals, &previous);  // inherited by the loops' threads
  }
  try {
    for (const auto& entry : s.entries) {
      s.threads.emplace_back([&s, &entry = *entry] { s.run_loop(entry); });
    }
    const std::stop_token token = s.stop.get_token();
    auto next_health = std::chrono::steady_clock::now() + s.settings.health_interval;
    const auto keep_health = [&] {
      if (std::chrono::steady_clock::now() >= next_health) {
        next_health = std::chrono::steady_clock::now() + s.settings.health_interval;
        s.keep_health(*this);
      }
    };
    if (s.settings.handle_signals) {
      const timespec poll{.tv_sec = 0, .tv_nsec = kSignalPoll.count() * 1'000'000};
      while (!token.stop_requested()) {
        if (const int signal = sigtimedwait(&signals, nullptr, &poll); signal > 0) {
          {
            const std::lock_guard lock(s.mutex);
            s.signal = signal;
          }
          s.stop.request_stop();
        }
        keep_health();
      }
    } else {
      std::unique_lock lock(s.mutex);
      while (!token.stop_requested()) {
        s.wake.wait_for(lock, token, std::min(kSignalPoll, s.settings.health_interval),
                        [] { return false; });
        lock.unlock();
        keep_health();
        lock.lock();
      }
    }
  } catch (...) {
    s.stop_and_join();
    if (s.settings.handle_signals) {
      pthread_sigmask(SIG_SETMASK, &previous, nullptr);
    }
    throw;
  }
  s.stop_and_join();
  if (s.settings.handle_signals) {
    pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  }
  s.keep_health(*this);  // stopped: a probe reads that the host is not running
}

void ServiceHost::stop() noexcept {
  state_->stop.request_stop();
  state_->wake.notify_all();
}

std::optional<int> ServiceHost::stop_signal() const noexcept {
  const std::lock_guard lock(state_->mutex);
  return state_->signal;
}

HostHealth ServiceHost::health() const {
  const std::lock_guard lock(state_->mutex);
  HostHealth health{.running = state_->running,
                    .healthy = state_->running,
                    .loops = {},
                    .health_file_error = state_->health_file_error};
  for (const auto& entry : state_->entries) {
    health.loops.push_back(entry->health);
    const LoopState state = entry->health.state;
    health.healthy =
        health.healthy && state != LoopState::kRestarting && state != LoopState::kFinished;
  }
  return health;
}

}  // namespace docket
