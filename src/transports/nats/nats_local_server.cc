#include "transports/nats/nats_local_server.h"

#include <signal.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <thread>

#include "docket/core/error.h"
#include "transports/local_server_process.h"
#include "transports/nats/nats_connection.h"

namespace docket::nats::detail {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr std::chrono::milliseconds kPoll{50};

}  // namespace

LocalServer LocalServer::find(const ServerUrl& url) {
  const std::string server = "NATS server " + printable(url);
  if (!transports::detail::is_loopback_host(url.host))
    throw ConfigurationError(server +
                             ": restarting a server is for a server on this machine "
                             "only; '" +
                             url.host + "' is not a loopback host (give 127.0.0.1 or localhost)");
  const transports::detail::ListeningProcesses holders =
      transports::detail::processes_listening_on(url.port);
  if (!holders.listening)
    throw InfrastructureError(server + ": nothing listens on TCP port " + std::to_string(url.port) +
                              " of this machine, so there is no server to restart: start it "
                              "(scripts/nats-start.sh starts the test server) or correct the port");
  LocalServer found;
  found.url_ = url;
  found.pid_ = holders.pids.empty() ? 0 : holders.pids.front();
  if (found.pid_ == 0)
    throw ConfigurationError(server + ": port " + std::to_string(url.port) +
                             " is listening, but no process visible here holds it: run as the "
                             "server's user, or root, where the server runs");
  const transports::detail::ProcessImage image = transports::detail::read_process_image(found.pid_);
  found.image_ = image;
  if (image.argv.empty() || image.directory.empty())
    throw ConfigurationError(found.describe() +
                             ": its command line or working directory cannot be read: run as "
                             "the server's user, or root");
  if (fs::path(image.argv.front()).filename() != "nats-server")
    throw ConfigurationError(found.describe() + ": the process holding the port runs '" +
                             image.argv.front() + "', not nats-server: correct the port");
  return found;
}

std::string LocalServer::describe() const {
  return "NATS server " + printable(url_) + " (pid " + std::to_string(pid_) + ")";
}

void LocalServer::restart(std::chrono::seconds timeout) {
  const Clock::time_point deadline = Clock::now() + timeout;
  if (!transports::detail::signal_and_wait(pid_, SIGTERM, timeout, describe()))
    throw InfrastructureError(describe() + ": still running " + std::to_string(timeout.count()) +
                              " s after SIGTERM; see its log, and stop it by hand (kill " +
                              std::to_string(pid_) + ")");
  transports::detail::start_detached(image_.argv, image_, describe());
  std::string last_error;
  while (Clock::now() < deadline) {
    try {
      const Connection probe(url_);
      jsAccountInfo* info = nullptr;
      jsErrCode code = static_cast<jsErrCode>(0);
      const natsStatus answered = js_GetAccountInfo(&info, probe.jetstream(), nullptr, &code);
      jsAccountInfo_Destroy(info);
      if (answered == NATS_OK) {
        if (const auto now = transports::detail::processes_listening_on(url_.port);
            !now.pids.empty())
          pid_ = now.pids.front();
        return;
      }
      last_error = status_text(answered);
    } catch (const NatsError& error) {
      last_error = error.what();
    }
    std::this_thread::sleep_for(kPoll);
  }
  throw InfrastructureError(describe() + ": started again (" + image_.argv.front() +
                            ") but no client could log in and reach JetStream within " +
                            std::to_string(timeout.count()) +
                            " s; the last attempt: " + last_error + ". See the server's log");
}

}  // namespace docket::nats::detail
