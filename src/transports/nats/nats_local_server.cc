#include "transports/nats/nats_local_server.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include "docket/core/error.h"
#include "transports/local_server_process.h"
#include "transports/nats/nats_connection.h"

namespace docket::nats::detail {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr std::chrono::milliseconds kPoll{50};
constexpr const char* kSetsid = "/usr/bin/setsid";

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
  const std::string proc = "/proc/" + std::to_string(found.pid_);
  found.argv_ =
      transports::detail::split_nul(transports::detail::read_process_file(found.pid_, "cmdline"));
  found.environment_ =
      transports::detail::split_nul(transports::detail::read_process_file(found.pid_, "environ"));
  std::error_code error;
  found.directory_ = fs::read_symlink(proc + "/cwd", error).string();
  std::error_code no_log;
  const fs::path output = fs::read_symlink(proc + "/fd/1", no_log);
  if (!no_log && output.is_absolute() && fs::is_regular_file(output, no_log))
    found.log_ = output.string();
  if (found.argv_.empty() || error)
    throw ConfigurationError(found.describe() +
                             ": its command line or working directory cannot be read: run as "
                             "the server's user, or root");
  if (fs::path(found.argv_.front()).filename() != "nats-server")
    throw ConfigurationError(found.describe() + ": the process holding the port runs '" +
                             found.argv_.front() + "', not nats-server: correct the port");
  return found;
}

std::string LocalServer::describe() const {
  return "NATS server " + printable(url_) + " (pid " + std::to_string(pid_) + ")";
}

void LocalServer::restart(std::chrono::seconds timeout) {
  const Clock::time_point deadline = Clock::now() + timeout;
  const std::string command = [&] {
    std::string joined;
    for (const std::string& arg : argv_)
      joined += (joined.empty() ? "" : " ") + arg;
    return joined;
  }();
  if (::kill(pid_, SIGTERM) != 0 && errno != ESRCH)
    throw InfrastructureError(describe() + ": SIGTERM failed: " + std::strerror(errno) +
                              "; run as the server's user, or root");
  while (transports::detail::process_running(pid_)) {
    if (Clock::now() >= deadline)
      throw InfrastructureError(describe() + ": still running " + std::to_string(timeout.count()) +
                                " s after SIGTERM; see its log, and stop it by hand (kill " +
                                std::to_string(pid_) + ")");
    std::this_thread::sleep_for(kPoll);
  }
  // setsid -f: the server leads a session of its own and is nobody's child.
  std::vector<std::string> args = {kSetsid, "-f"};
  args.insert(args.end(), argv_.begin(), argv_.end());
  std::vector<char*> argv;
  for (std::string& arg : args)
    argv.push_back(arg.data());
  argv.push_back(nullptr);
  std::vector<char*> env;
  for (std::string& entry : environment_)
    env.push_back(entry.data());
  env.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addchdir_np(&actions, directory_.c_str());
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  // Its output goes on where it went (scripts/nats-start.sh's server.log).
  const std::string log = log_.empty() ? "/dev/null" : log_;
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(), O_WRONLY | O_APPEND, 0);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  // Nothing else of this process's: a descriptor the server inherited (the pipe a test
  // reads this process's output from, say) would stay open as long as it runs.
  posix_spawn_file_actions_addclosefrom_np(&actions, STDERR_FILENO + 1);
  pid_t child = 0;
  const int spawned = ::posix_spawn(&child, kSetsid, &actions, nullptr, argv.data(), env.data());
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0)
    throw InfrastructureError(describe() + ": stopped, and starting it again (" + command +
                              ") failed: " + std::strerror(spawned) +
                              "; start it by hand (scripts/nats-start.sh for the test server)");
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
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
  throw InfrastructureError(describe() + ": started again (" + command +
                            ") but no client could log in and reach JetStream within " +
                            std::to_string(timeout.count()) +
                            " s; the last attempt: " + last_error + ". See the server's log");
}

}  // namespace docket::nats::detail
