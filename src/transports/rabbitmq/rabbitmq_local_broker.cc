#include "transports/rabbitmq/rabbitmq_local_broker.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <thread>

#include "docket/core/error.h"
#include "transports/local_server_process.h"
#include "transports/rabbitmq/rabbitmq_connection.h"

namespace docket::rabbitmq::detail {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr std::chrono::milliseconds kConnectRetry{100};
constexpr std::size_t kMaxOutputShown = 2000;  // bytes of rabbitmqctl's output in a message

std::string command_name(pid_t pid) {
  std::string comm = transports::detail::read_process_file(pid, "comm");
  while (!comm.empty() && comm.back() == '\n')
    comm.pop_back();
  return comm;
}

std::optional<std::string> variable(const std::vector<std::string>& environment,
                                    std::string_view name) {
  for (const std::string& entry : environment) {
    if (entry.size() > name.size() && entry.starts_with(name) && entry[name.size()] == '=')
      return entry.substr(name.size() + 1);
  }
  return std::nullopt;
}

std::vector<std::string> split(std::string_view text, char separator) {
  std::vector<std::string> parts;
  std::size_t begin = 0;
  while (begin <= text.size()) {
    const std::size_t end = std::min(text.find(separator, begin), text.size());
    if (end > begin)
      parts.emplace_back(text.substr(begin, end - begin));
    begin = end + 1;
  }
  return parts;
}

// rabbitmqctl of the RabbitMQ the VM runs, in order: $RABBITMQ_HOME/sbin; beside the
// plugins directory its ERL_LIBS names (.../rabbitmq_server-X/plugins -> .../sbin);
// Debian's /usr/lib/rabbitmq/bin; its PATH. The candidates tried, when none is there.
std::vector<std::string> rabbitmqctl_candidates(const std::vector<std::string>& environment) {
  std::vector<std::string> candidates;
  if (const auto home = variable(environment, "RABBITMQ_HOME"))
    candidates.push_back(*home + "/sbin/rabbitmqctl");
  for (const std::string& lib : split(variable(environment, "ERL_LIBS").value_or(""), ':')) {
    const fs::path plugins(lib);
    if (plugins.filename() == "plugins")
      candidates.push_back((plugins.parent_path() / "sbin" / "rabbitmqctl").string());
  }
  candidates.emplace_back("/usr/lib/rabbitmq/bin/rabbitmqctl");
  for (const std::string& dir : split(variable(environment, "PATH").value_or(""), ':'))
    candidates.push_back(dir + "/rabbitmqctl");
  return candidates;
}

struct Finished {
  bool in_time = true;
  int exit_status = -1;  // the exit code; -1 when killed by a signal
  std::string output;    // stdout and stderr, interleaved
};

// Runs `argv` with `environment`, its output captured, until it exits or `deadline`
// (then it is killed). Throws InfrastructureError when it cannot be started.
Finished run(const std::vector<std::string>& argv, const std::vector<std::string>& environment,
             Clock::time_point deadline) {
  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0)
    throw InfrastructureError(std::string("creating a pipe for rabbitmqctl: ") +
                              std::strerror(errno));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDERR_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  // Nothing else of this process's, its end of the pipe included.
  posix_spawn_file_actions_addclosefrom_np(&actions, STDERR_FILENO + 1);
  std::vector<char*> args;
  for (const std::string& arg : argv)
    args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  std::vector<char*> env;
  for (const std::string& entry : environment)
    env.push_back(const_cast<char*>(entry.c_str()));
  env.push_back(nullptr);
  pid_t child = 0;
  const int spawned = ::posix_spawn(&child, args[0], &actions, nullptr, args.data(), env.data());
  posix_spawn_file_actions_destroy(&actions);
  ::close(pipe_fds[1]);
  if (spawned != 0) {
    ::close(pipe_fds[0]);
    throw InfrastructureError("starting " + argv[0] + ": " + std::strerror(spawned));
  }
  Finished finished;
  char buffer[4096];
  while (true) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) {
      finished.in_time = false;
      ::kill(child, SIGKILL);
      break;
    }
    pollfd readable{.fd = pipe_fds[0], .events = POLLIN, .revents = 0};
    const int ready = ::poll(&readable, 1, static_cast<int>(std::min<long long>(left, 1000)));
    if (ready < 0 && errno != EINTR)
      break;
    if (ready <= 0)
      continue;
    const ssize_t got = ::read(pipe_fds[0], buffer, sizeof buffer);
    if (got <= 0)
      break;  // end of output: every writer has exited
    finished.output.append(buffer, static_cast<std::size_t>(got));
  }
  ::close(pipe_fds[0]);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status))
    finished.exit_status = WEXITSTATUS(status);
  if (finished.output.size() > kMaxOutputShown)
    finished.output = "..." + finished.output.substr(finished.output.size() - kMaxOutputShown);
  return finished;
}

}  // namespace

LocalBroker LocalBroker::find(const BrokerUrl& url) {
  const std::string broker = "RabbitMQ broker " + printable(url);
  const std::string port = std::to_string(url.port);
  if (!transports::detail::is_loopback_host(url.host)) {
    throw ConfigurationError(
        broker + ": restarting a broker is for a broker on this machine only; '" + url.host +
        "' is not a loopback host: give the URL of a local broker "
        "(127.0.0.1, localhost or ::1)");
  }
  const transports::detail::ListeningProcesses holders =
      transports::detail::processes_listening_on(url.port);
  if (!holders.listening) {
    throw InfrastructureError(broker + ": nothing listens on TCP port " + port +
                              " of this machine, so there is no broker to restart: start it "
                              "(scripts/rabbitmq-start.sh starts the test broker) or correct "
                              "the port");
  }
  if (holders.pids.empty()) {
    throw ConfigurationError(
        broker + ": port " + port + " is listening, but no process visible here holds it" +
        (holders.some_unreadable
             ? std::string(" (this user may not read some processes' /proc/<pid>/fd): run as "
                           "the broker's user, or root")
             : std::string(" (is the broker in another container or PID namespace?): run "
                           "where the broker runs")));
  }
  LocalBroker found;
  found.url_ = url;
  for (const pid_t pid : holders.pids) {
    if (command_name(pid).starts_with("beam"))
      found.pid_ = pid;
  }
  if (found.pid_ == 0) {
    throw ConfigurationError(broker + ": the process holding port " + port + " (pid " +
                             std::to_string(holders.pids.front()) + ", '" +
                             command_name(holders.pids.front()) +
                             "') is not an Erlang VM, so not a RabbitMQ broker: correct the port");
  }
  const fs::path environ = "/proc/" + std::to_string(found.pid_) + "/environ";
  std::ifstream in(environ, std::ios::binary);
  if (!in) {
    throw ConfigurationError(broker + ": reading " + environ.string() + " failed (" +
                             std::strerror(errno) +
                             "), and a restart needs the broker's environment (its node name "
                             "and the HOME with its Erlang cookie): run as the broker's user, or "
                             "root");
  }
  std::ostringstream text;
  text << in.rdbuf();
  found.environment_ = split(text.str(), '\0');
  found.node_ = variable(found.environment_, "RABBITMQ_NODENAME").value_or("");
  const std::vector<std::string> candidates = rabbitmqctl_candidates(found.environment_);
  for (const std::string& candidate : candidates) {
    if (::access(candidate.c_str(), X_OK) == 0) {
      found.rabbitmqctl_ = candidate;
      break;
    }
  }
  if (found.rabbitmqctl_.empty()) {
    std::string tried;
    for (const std::string& candidate : candidates)
      tried += (tried.empty() ? "" : ", ") + candidate;
    throw ConfigurationError(found.describe() +
                             ": no rabbitmqctl found beside its RabbitMQ (tried " + tried +
                             "): install RabbitMQ's command-line tools (Debian rabbitmq-server), "
                             "or set RABBITMQ_HOME in the broker's environment");
  }
  return found;
}

std::string LocalBroker::describe() const {
  return "RabbitMQ broker " + printable(url_) + " (node " + (node_.empty() ? "?" : node_) +
         ", pid " + std::to_string(pid_) + ")";
}

void LocalBroker::run_rabbitmqctl(std::string_view command, Clock::time_point deadline,
                                  std::string_view then) const {
  std::vector<std::string> argv = {rabbitmqctl_};
  if (!node_.empty()) {
    argv.emplace_back("-n");
    argv.push_back(node_);
  }
  const auto seconds = std::chrono::ceil<std::chrono::seconds>(deadline - Clock::now()).count();
  argv.emplace_back("--timeout");
  argv.push_back(std::to_string(std::max<long long>(1, seconds)));
  argv.emplace_back(command);
  Finished finished;
  try {
    finished = run(argv, environment_, deadline);
  } catch (const InfrastructureError& error) {
    throw InfrastructureError(describe() + ": restarting failed at `rabbitmqctl " +
                              std::string(command) + "`: " + error.what() + "; " +
                              std::string(then));
  }
  if (finished.in_time && finished.exit_status == 0)
    return;
  const std::string outcome = !finished.in_time ? "did not finish in time and was killed"
                              : finished.exit_status < 0
                                  ? "was killed by a signal"
                                  : "exited with status " + std::to_string(finished.exit_status);
  throw InfrastructureError(describe() + ": restarting failed: `" + rabbitmqctl_ + " " +
                            std::string(command) + "` " + outcome + ", saying: " + finished.output +
                            "; " + std::string(then));
}

void LocalBroker::wait_until_clients_connect(Clock::time_point deadline) const {
  while (true) {
    try {
      Connection probe(url_);
      return;
    } catch (const BrokerError& error) {
      if (Clock::now() + kConnectRetry >= deadline) {
        throw InfrastructureError(describe() +
                                  ": restarted, but no client could log in before the deadline; "
                                  "the last attempt: " +
                                  error.what() + ". See the broker's log (RABBITMQ_LOG_BASE)");
      }
    }
    std::this_thread::sleep_for(kConnectRetry);
  }
}

void LocalBroker::restart(std::chrono::seconds timeout) const {
  const Clock::time_point deadline = Clock::now() + timeout;
  // What an operator types to do a step by hand, with the broker's cookie and node.
  const auto by_hand = [&](std::string_view command) {
    return "`HOME=" + variable(environment_, "HOME").value_or("<the broker's HOME>") + " " +
           rabbitmqctl_ + (node_.empty() ? "" : " -n " + node_) + " " + std::string(command) + "`";
  };
  run_rabbitmqctl("stop_app", deadline,
                  "the application may have stopped: see " + by_hand("status") +
                      ", and start it with " + by_hand("start_app"));
  run_rabbitmqctl("start_app", deadline,
                  "the VM (pid " + std::to_string(pid_) +
                      ") still runs with the RabbitMQ application stopped: start it with " +
                      by_hand("start_app") + ", or stop the broker and start it afresh");
  wait_until_clients_connect(deadline);
}

}  // namespace docket::rabbitmq::detail
