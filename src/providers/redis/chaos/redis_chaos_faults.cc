// Redis's server faults for `docket chaos --allow-server-restart`
// (tools/docket/chaos/server_faults.h):
//  - the workers' connections closed by the server: each connection named for the run
//    (the workers' URL carries client_name=docket-chaos-RUN) is CLIENT KILLed;
//  - the server crashed: SIGKILLed, as a power loss of its process (nothing flushed,
//    no shutdown), and started again in place from its configuration file, so that it
//    recovers what its append-only file holds. What survives is what the server's
//    appendfsync promised (redis_durability.h): with `always`, every acknowledged write.
// Only a server on this machine, started from a configuration file (as
// scripts/redis-start.sh starts the test server): its command line is not usable, as
// Redis rewrites its process title, so the restart runs INFO's `executable` on its
// `config_file`, in the working directory and environment it had.
#include <signal.h>

#include <chrono>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "chaos_provider.h"
#include "docket/core/error.h"
#include "providers/redis/redis_connection.h"
#include "providers/redis/redis_url.h"
#include "transports/local_server_process.h"

namespace docket::redis {
namespace {

namespace process = transports::detail;
using detail::Connection;
using detail::RedisUrl;

constexpr std::chrono::seconds kCrashWait{10};

// "name:value" lines of an INFO section.
std::map<std::string, std::string> info_fields(std::string_view text) {
  std::map<std::string, std::string> fields;
  std::istringstream lines{std::string(text)};
  std::string line;
  while (std::getline(lines, line)) {
    if (!line.empty() && line.back() == '\r') {
      line.pop_back();
    }
    const auto colon = line.find(':');
    if (!line.starts_with('#') && colon != std::string::npos) {
      fields[line.substr(0, colon)] = line.substr(colon + 1);
    }
  }
  return fields;
}

// The ids of the connections named `name`, from CLIENT LIST ("id=7 addr=... name=x ...").
std::vector<std::string> named_connections(Connection& connection, std::string_view name) {
  std::vector<std::string> ids;
  std::istringstream lines{std::string(connection.run({"CLIENT", "LIST"}).ok().text())};
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream fields(line);
    std::string field, id;
    bool ours = false;
    while (fields >> field) {
      if (field.starts_with("id=")) {
        id = field.substr(3);
      } else if (field == "name=" + std::string(name)) {
        ours = true;
      }
    }
    if (ours && !id.empty()) {
      ids.push_back(id);
    }
  }
  return ids;
}

class RedisFaults final : public tool::ServerFaults {
 public:
  // Throws ConfigurationError when the server is not on this machine.
  RedisFaults(std::string_view url, std::string_view run)
      : url_(detail::parse_url(url)), client_name_("docket-chaos-" + std::string(run)) {
    if (!process::is_loopback_host(url_.host)) {
      throw ConfigurationError(
          "chaos: --allow-server-restart crashes the Redis server by signalling its process, "
          "which only a server on this machine allows; the store's host is '" +
          url_.host + "'. Point --store at a local server, or leave out --allow-server-restart");
    }
    if (!url_.client_name.empty()) {
      throw ConfigurationError(
          "chaos: --allow-server-restart names the workers' connections itself "
          "(client_name=docket-chaos-RUN) to close them; leave client_name out of --store");
    }
    worker_url_ = std::string(url) + (url.find('?') == std::string_view::npos ? "?" : "&") +
                  "client_name=" + client_name_;
  }

  const std::string& worker_url() const noexcept override { return worker_url_; }

  std::int64_t drop_sessions() override {
    Connection connection(url_);
    std::int64_t closed = 0;
    for (const std::string& id : named_connections(connection, client_name_)) {
      closed += connection.run({"CLIENT", "KILL", "ID", id}).integer();
    }
    return closed;
  }

  bool crash_server() override {
    Connection connection(url_);
    if (named_connections(connection, client_name_).empty()) {
      return false;  // no worker connected: a crash now would test nothing of theirs
    }
    const auto info = info_fields(connection.run({"INFO", "server"}).ok().text());
    const std::string server = "the Redis server at " + url_.server();
    const auto pid_field = info.find("process_id");
    const std::string executable = info.contains("executable") ? info.at("executable") : "";
    const std::string config = info.contains("config_file") ? info.at("config_file") : "";
    if (pid_field == info.end() || executable.empty() || config.empty()) {
      throw ConfigurationError(
          "chaos: " + server +
          " was started without a configuration file (INFO server shows no config_file), "
          "so it cannot be started again as it was; start it from one "
          "(scripts/redis-start.sh does), or leave out --allow-server-restart");
    }
    const auto pid = static_cast<pid_t>(std::stol(pid_field->second));
    const std::string who = server + " (pid " + pid_field->second + ")";
    if (!process::read_process_file(pid, "comm").starts_with("redis-server")) {
      throw InfrastructureError("chaos: " + who +
                                " is not a redis-server process of this machine; is the "
                                "server in another container? Leave out --allow-server-restart");
    }
    const process::ProcessImage image = process::read_process_image(pid);
    // A power loss takes the server's forked children too (an AOF rewrite, a save): one
    // left running would hold the listening socket it inherited, and the new server
    // could not bind its port.
    std::vector<pid_t> victims{pid};
    for (const pid_t child : process::child_processes(pid)) {
      victims.push_back(child);
    }
    for (const pid_t victim : victims) {
      if (!process::signal_and_wait(victim, SIGKILL, kCrashWait, who)) {
        throw InfrastructureError("chaos: " + who + ": process " + std::to_string(victim) +
                                  " still runs " + std::to_string(kCrashWait.count()) +
                                  " s after SIGKILL");
      }
    }
    const auto deadline = std::chrono::steady_clock::now() + kCrashWait;
    while (process::processes_listening_on(url_.port).listening) {
      if (std::chrono::steady_clock::now() >= deadline) {
        throw InfrastructureError("chaos: " + who + " was killed, but port " +
                                  std::to_string(url_.port) + " is still held " +
                                  std::to_string(kCrashWait.count()) +
                                  " s later, so it cannot be started again: see who holds it");
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    process::start_detached({executable, config}, image, who);
    return true;
  }

  bool accepting() override {
    try {
      Connection connection(url_);
      return !connection.run({"PING"}).is_error();  // LOADING while it reads its AOF
    } catch (const Error&) {
      return false;  // refused while starting: the answer asked for, not a failure
    }
  }

 private:
  RedisUrl url_;
  std::string client_name_;
  std::string worker_url_;
};

std::unique_ptr<tool::ServerFaults> server_faults(std::string_view url, std::string_view run) {
  return std::make_unique<RedisFaults>(url, run);
}

}  // namespace

const tool::ChaosProvider& chaos_provider() {
  static const tool::ChaosProvider provider{
      .server_faults = &server_faults,
      .server_name = "Redis",
      .crash_effect = "SIGKILLed and started again; it recovers from its append-only file"};
  return provider;
}

}  // namespace docket::redis
