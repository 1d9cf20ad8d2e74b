#include "providers/postgres/postgres_listener.h"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>
#include <utility>

#include "docket/core/error.h"
#include "providers/postgres/postgres_connection.h"

namespace docket::postgres::detail {

// A pipe whose read end becomes readable when the listener is told to stop: the
// thread polls it beside the connection's socket, so a stop ends any wait at once.
class Listener::StopPipe {
 public:
  StopPipe() {
    if (::pipe2(fds_, O_CLOEXEC | O_NONBLOCK) != 0)
      throw InfrastructureError("PostgreSQL listener: cannot make a pipe (errno " +
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
  int fd() const noexcept { return fds_[0]; }

  // Waits until `fd` (when not negative) is readable, the pipe is, or `timeout` passed;
  // returns false when the pipe is (stop).
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

Listener::Listener(std::string conninfo, std::string channel)
    : conninfo_(std::move(conninfo)),
      channel_(std::move(channel)),
      stop_(std::make_unique<StopPipe>()),
      thread_([this] { run(); }) {
  std::unique_lock lock(mutex_);
  first_attempt_.wait(lock, [&] { return first_attempt_over_; });
}

void Listener::first_attempt_over() {
  {
    const std::lock_guard lock(mutex_);
    first_attempt_over_ = true;
  }
  first_attempt_.notify_all();
}

Listener::~Listener() {
  stop_->stop();
  thread_.join();
}

void Listener::run() {
  std::chrono::milliseconds pause = kFirstPause;
  for (;;) {
    const bool stopped = listen_once();
    first_attempt_over();
    if (stopped)
      return;
    if (!stop_->wait(-1, pause))
      return;
    pause = std::min(kLongestPause, pause * 2);
  }
}

bool Listener::listen_once() {
  std::optional<Connection> connection;
  try {
    connection.emplace(conninfo_);
  } catch (const Error&) {
    return false;  // the server is away: try again after the pause
  }
  PGconn* conn = connection->native();
  // The channel's name on this connection's search_path, quoted as an identifier.
  const std::string name_sql = "SELECT " + channel_;
  PGresult* named = PQexec(conn, name_sql.c_str());
  std::string listen;
  if (PQresultStatus(named) == PGRES_TUPLES_OK && PQntuples(named) == 1 &&
      PQgetisnull(named, 0, 0) == 0) {
    const char* name = PQgetvalue(named, 0, 0);
    if (char* quoted = PQescapeIdentifier(conn, name, std::strlen(name)); quoted != nullptr) {
      listen = "LISTEN " + std::string(quoted);
      PQfreemem(quoted);
    }
  }
  PQclear(named);
  if (listen.empty())
    return false;
  PGresult* result = PQexec(conn, listen.c_str());
  const bool listening = PQresultStatus(result) == PGRES_COMMAND_OK;
  PQclear(result);
  if (!listening)
    return false;
  // What was committed before LISTEN took effect sent no notification to this
  // connection: the waiters look once.
  signal_->notify();
  first_attempt_over();
  for (;;) {
    if (!stop_->wait(PQsocket(conn), std::chrono::milliseconds(-1)))
      return true;
    if (PQconsumeInput(conn) == 0)
      return false;  // the connection failed: open another
    bool heard = false;
    while (PGnotify* notification = PQnotifies(conn)) {
      PQfreemem(notification);
      heard = true;
    }
    if (heard)
      signal_->notify();
  }
}

std::shared_ptr<Listener> shared_listener(std::string_view conninfo, std::string_view channel) {
  static std::mutex mutex;
  static std::map<std::pair<std::string, std::string>, std::weak_ptr<Listener>> listeners;
  const std::lock_guard lock(mutex);
  std::erase_if(listeners, [](const auto& entry) { return entry.second.expired(); });
  std::weak_ptr<Listener>& slot = listeners[{std::string(conninfo), std::string(channel)}];
  std::shared_ptr<Listener> listener = slot.lock();
  if (!listener) {
    listener = std::make_shared<Listener>(std::string(conninfo), std::string(channel));
    slot = listener;
  }
  return listener;
}

}  // namespace docket::postgres::detail
