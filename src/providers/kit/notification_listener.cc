#include "providers/kit/notification_listener.h"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <map>
#include <utility>

#include "docket/core/error.h"

namespace docket::kit {

// A pipe whose read end becomes readable when the listener is told to stop: the
// thread polls it beside the connection's socket, so a stop ends any wait at once.
class NotificationListener::StopPipe {
 public:
  StopPipe() {
    if (::pipe2(fds_, O_CLOEXEC | O_NONBLOCK) != 0)
      throw InfrastructureError("notification listener: cannot make a pipe (errno " +
                                std::to_string(errno) + ")");
  }
  ~StopPipe() {
    ::close(fds_[0]);
    ::close(fds_[1]);
  }
  StopPipe(const StopPipe&) = delete;
  StopPipe& operator=(const StopPipe&) = delete;

  void stop() noexcept {
    const char byte = 1;
    [[maybe_unused]] const ssize_t written = ::write(fds_[1], &byte, 1);
  }

  // Waits until `fd` (when not negative) is readable, the pipe is, or `timeout` passed
  // (negative: no limit); returns false when the pipe is (stop).
  bool wait(int fd, std::chrono::milliseconds timeout) const noexcept {
    pollfd fds[2] = {{.fd = fds_[0], .events = POLLIN, .revents = 0},
                     {.fd = fd, .events = POLLIN, .revents = 0}};
    const int count = fd >= 0 ? 2 : 1;
    while (::poll(fds, count, static_cast<int>(timeout.count())) < 0 && errno == EINTR) {
    }
    return (fds[0].revents & POLLIN) == 0;
  }

 private:
  int fds_[2] = {-1, -1};
};

bool NotificationListener::Session::wait_readable(int fd) {
  return listener_.stop_->wait(fd, std::chrono::milliseconds(-1));
}

void NotificationListener::Session::subscribed() {
  listener_.signal_->notify();
  listener_.first_attempt_over();
}

void NotificationListener::Session::heard() {
  listener_.signal_->notify();
}

NotificationListener::NotificationListener(Listen listen)
    : listen_(std::move(listen)), stop_(std::make_unique<StopPipe>()), thread_([this] { run(); }) {
  std::unique_lock lock(mutex_);
  first_attempt_.wait(lock, [&] { return first_attempt_over_; });
}

NotificationListener::~NotificationListener() {
  stop_->stop();
  thread_.join();
}

void NotificationListener::first_attempt_over() {
  {
    const std::lock_guard lock(mutex_);
    first_attempt_over_ = true;
  }
  first_attempt_.notify_all();
}

void NotificationListener::run() {
  std::chrono::milliseconds pause = kFirstPause;
  for (;;) {
    Session session(*this);
    const bool stopped = listen_(session);
    first_attempt_over();
    if (stopped)
      return;
    if (!stop_->wait(-1, pause))
      return;
    pause = std::min(kLongestPause, pause * 2);
  }
}

std::shared_ptr<NotificationListener> shared_listener(
    std::string_view key, const std::function<NotificationListener::Listen()>& make) {
  // One slot a key, found under the registry's lock and filled under its own: a listener
  // whose first connection waits on an unreachable server holds up the stores asking
  // for that server's listener, never those asking for another's.
  struct Slot {
    std::mutex mutex;
    std::weak_ptr<NotificationListener> listener;
  };
  static std::mutex registry_mutex;
  static std::map<std::string, std::shared_ptr<Slot>, std::less<>> slots;
  std::shared_ptr<Slot> slot;
  {
    const std::lock_guard lock(registry_mutex);
    std::erase_if(slots, [](const auto& entry) {
      // A slot nobody is filling and whose listener has stopped.
      return entry.second.use_count() == 1 && entry.second->listener.expired();
    });
    std::shared_ptr<Slot>& found = slots[std::string(key)];
    if (!found) {
      found = std::make_shared<Slot>();
    }
    slot = found;
  }
  const std::lock_guard lock(slot->mutex);
  std::shared_ptr<NotificationListener> listener = slot->listener.lock();
  if (!listener) {
    listener = std::make_shared<NotificationListener>(make());
    slot->listener = listener;
  }
  return listener;
}

}  // namespace docket::kit
