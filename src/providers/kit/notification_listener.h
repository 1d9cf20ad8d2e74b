// kit::NotificationListener: a thread that keeps one listening connection to a store's
// server open and notifies a wake signal (docket/core/wake_signal.h) whenever the server
// says a commit happened: how a relay hears, within milliseconds, that a producer in any
// process staged a message (PostgreSQL's LISTEN/NOTIFY, Redis's SUBSCRIBE/PUBLISH). The
// provider gives the connection's life (a Listen function); the thread, the pauses, the
// stop and the sharing are here, once.
//
// A connection that fails is opened again after a pause doubling from kFirstPause to
// kLongestPause. The signal is notified once each time a subscription takes effect,
// because a notification sent while nobody listened is lost, and the waiters should
// poll. Waiters poll anyway when their wait times out, so an outage of the listener
// delays messages by a poll interval and loses none.
//
// Invariant: one thread per listener, joined by the destructor; it holds the only
// listening connection, which never serves anything else.
//
// Thread-safety: signal() may be called from any thread; a Session belongs to the
// listener's thread.
#ifndef DOCKET_PROVIDERS_KIT_NOTIFICATION_LISTENER_H_
#define DOCKET_PROVIDERS_KIT_NOTIFICATION_LISTENER_H_

#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

#include "docket/core/wake_signal.h"

namespace docket::kit {

class NotificationListener {
 public:
  static constexpr std::chrono::milliseconds kFirstPause{100};
  static constexpr std::chrono::milliseconds kLongestPause{5000};

  // What one listening connection may do on the listener's thread.
  class Session {
   public:
    // Waits until `fd` is readable; false when the listener is stopping (return then).
    bool wait_readable(int fd);
    // The subscription took effect: what was committed before it sent nothing to this
    // connection, so the waiters look once; the constructor returns from here on.
    void subscribed();
    // A notification arrived.
    void heard();

   private:
    friend class NotificationListener;
    explicit Session(NotificationListener& listener) : listener_(listener) {}
    NotificationListener& listener_;
  };

  // One connection's life: connects and subscribes (returning false at once when it
  // cannot), calls session.subscribed(), then reads notifications (session.wait_readable
  // before each blocking read, session.heard() for each) until wait_readable says stop
  // (return true) or the connection fails (return false). It must not throw; what it
  // cannot handle is a failed connection.
  using Listen = std::function<bool(Session& session)>;

  // Starts the thread and returns once the first subscription took effect or the first
  // connection failed (it then tries again, after a pause): a commit after the
  // constructor returns is heard whenever the server could be reached.
  explicit NotificationListener(Listen listen);
  ~NotificationListener();
  NotificationListener(const NotificationListener&) = delete;
  NotificationListener& operator=(const NotificationListener&) = delete;

  const std::shared_ptr<WakeSignal>& signal() const noexcept { return signal_; }

 private:
  class StopPipe;
  void run();
  void first_attempt_over();

  const Listen listen_;
  const std::shared_ptr<WakeSignal> signal_ = std::make_shared<WakeSignal>();
  std::unique_ptr<StopPipe> stop_;
  std::mutex mutex_;
  std::condition_variable first_attempt_;
  bool first_attempt_over_ = false;
  std::thread thread_;
};

// The listener `key` names (a provider's name for its server and channel, e.g.
// "postgres:" + conninfo + channel), shared by every store of this process that asks for
// it: one listening connection per process, server and channel. `make` gives the
// listening function when there is no listener yet. It stops when the last holder lets
// go.
std::shared_ptr<NotificationListener> shared_listener(
    std::string_view key, const std::function<NotificationListener::Listen()>& make);

}  // namespace docket::kit

#endif  // DOCKET_PROVIDERS_KIT_NOTIFICATION_LISTENER_H_
