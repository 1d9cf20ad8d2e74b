// A listening connection: LISTEN on one channel of one database, and a thread that
// notifies a wake signal (docket/core/wake_signal.h) whenever a notification on it
// arrives: how a relay hears, within milliseconds, that a producer in any process
// committed a message (postgres_outbox_store.cc sends the NOTIFY with the insert).
//
// A connection that fails is opened again after a pause doubling from kFirstPause to
// kLongestPause; the signal is notified once each time LISTEN takes effect, because a
// notification sent while nobody listened is lost, and the waiters should poll.
// Waiters poll anyway when their wait times out, so an outage of the listener delays
// messages by a poll interval and loses none.
//
// Invariant: one thread per listener, joined by the destructor; it holds the only
// connection, which never serves anything else.
//
// Thread-safety: signal() may be called from any thread.
#ifndef DOCKET_PROVIDERS_POSTGRES_POSTGRES_LISTENER_H_
#define DOCKET_PROVIDERS_POSTGRES_POSTGRES_LISTENER_H_

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

#include "docket/core/wake_signal.h"

namespace docket::postgres::detail {

class Listener {
 public:
  static constexpr std::chrono::milliseconds kFirstPause{100};
  static constexpr std::chrono::milliseconds kLongestPause{5000};

  // Starts listening on the channel `channel` (an SQL expression, evaluated on the
  // listening connection, e.g. "'docket_outbox_' || md5(current_schema())") names, on
  // the database `conninfo` names,
  // on the listener's thread, and returns once its first LISTEN took effect or its
  // first connection failed (it then tries again, after a pause): a commit after the
  // constructor returns is heard whenever the server could be reached.
  Listener(std::string conninfo, std::string channel);
  ~Listener();
  Listener(const Listener&) = delete;
  Listener& operator=(const Listener&) = delete;

  const std::shared_ptr<WakeSignal>& signal() const noexcept { return signal_; }

 private:
  class StopPipe;
  void run();
  // Listens on one connection until it fails or the listener stops; returns whether
  // it stopped.
  bool listen_once();
  void first_attempt_over();

  const std::string conninfo_;
  const std::string channel_;
  const std::shared_ptr<WakeSignal> signal_ = std::make_shared<WakeSignal>();
  std::unique_ptr<StopPipe> stop_;
  std::mutex mutex_;
  std::condition_variable first_attempt_;
  bool first_attempt_over_ = false;
  std::thread thread_;
};

// The listener of the channel `channel` (as Listener's) names on the database `conninfo`
// names, shared by every store of
// this process that asks for it (one listening connection per process and database);
// it stops when the last holder lets go.
std::shared_ptr<Listener> shared_listener(std::string_view conninfo, std::string_view channel);

}  // namespace docket::postgres::detail

#endif  // DOCKET_PROVIDERS_POSTGRES_POSTGRES_LISTENER_H_
