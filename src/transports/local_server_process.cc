#include "transports/local_server_process.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include "docket/core/error.h"

namespace docket::transports::detail {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kListenState = "0A";  // TCP_LISTEN in /proc/net/tcp
constexpr const char* kSetsid = "/usr/bin/setsid";
constexpr std::chrono::milliseconds kPoll{20};

std::string read_whole(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The inodes of the sockets listening on TCP `port`, IPv4 and IPv6, on any address.
std::set<std::string> listening_inodes(int port) {
  std::set<std::string> inodes;
  for (const char* table : {"/proc/net/tcp", "/proc/net/tcp6"}) {
    std::ifstream in(table);
    std::string line;
    std::getline(in, line);  // the column titles
    while (std::getline(in, line)) {
      // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode ...
      std::istringstream fields(line);
      std::string slot, local, remote, state, queues, timer, retransmits, uid, timeout, inode;
      fields >> slot >> local >> remote >> state >> queues >> timer >> retransmits >> uid >>
          timeout >> inode;
      const auto colon = local.rfind(':');
      if (state == kListenState && colon != std::string::npos && !inode.empty() &&
          std::stoi(local.substr(colon + 1), nullptr, 16) == port)
        inodes.insert(inode);
    }
  }
  return inodes;
}

}  // namespace

bool is_loopback_host(std::string_view host) {
  return host == "localhost" || host == "::1" || host.starts_with("127.");
}

ListeningProcesses processes_listening_on(int port) {
  ListeningProcesses found;
  const std::set<std::string> inodes = listening_inodes(port);
  found.listening = !inodes.empty();
  if (!found.listening)
    return found;
  std::error_code ignored;
  for (const auto& process : fs::directory_iterator("/proc", ignored)) {
    const std::string name = process.path().filename();
    if (name.empty() || !std::all_of(name.begin(), name.end(), ::isdigit))
      continue;
    std::error_code denied;
    fs::directory_iterator descriptors(process.path() / "fd", denied);
    if (denied) {
      found.some_unreadable = found.some_unreadable || denied == std::errc::permission_denied;
      continue;
    }
    for (const auto& descriptor : descriptors) {
      std::error_code gone;
      const std::string target = fs::read_symlink(descriptor.path(), gone);
      if (!gone && target.starts_with("socket:[") && target.size() > 9 &&
          inodes.contains(target.substr(8, target.size() - 9))) {
        found.pids.push_back(static_cast<pid_t>(std::stol(name)));
        break;
      }
    }
  }
  return found;
}

std::string read_process_file(pid_t pid, std::string_view name) {
  return read_whole(fs::path("/proc") / std::to_string(pid) / name);
}

std::vector<std::string> split_nul(std::string_view text) {
  std::vector<std::string> parts;
  std::size_t begin = 0;
  while (begin < text.size()) {
    const std::size_t end = std::min(text.find('\0', begin), text.size());
    parts.emplace_back(text.substr(begin, end - begin));
    begin = end + 1;
  }
  return parts;
}

bool process_running(pid_t pid) {
  const std::string stat = read_process_file(pid, "stat");
  const auto close = stat.rfind(')');
  return !stat.empty() && close != std::string::npos && close + 2 < stat.size() &&
         stat[close + 2] != 'Z';
}

std::vector<pid_t> child_processes(pid_t pid) {
  std::vector<pid_t> children;
  std::error_code ignored;
  for (const auto& process : fs::directory_iterator("/proc", ignored)) {
    const std::string name = process.path().filename();
    if (name.empty() || !std::all_of(name.begin(), name.end(), ::isdigit))
      continue;
    // stat: "pid (comm) state ppid ...": the comm may hold spaces and parentheses.
    const std::string stat = read_whole(process.path() / "stat");
    const auto close = stat.rfind(')');
    if (close == std::string::npos || close + 4 >= stat.size())
      continue;
    std::istringstream rest(stat.substr(close + 2));
    std::string state;
    long parent = 0;
    if (rest >> state >> parent && parent == pid)
      children.push_back(static_cast<pid_t>(std::stol(name)));
  }
  return children;
}

ProcessImage read_process_image(pid_t pid) {
  ProcessImage image;
  image.pid = pid;
  image.argv = split_nul(read_process_file(pid, "cmdline"));
  image.environment = split_nul(read_process_file(pid, "environ"));
  const fs::path proc = fs::path("/proc") / std::to_string(pid);
  std::error_code error;
  image.directory = fs::read_symlink(proc / "cwd", error).string();
  if (error)
    image.directory.clear();
  std::error_code no_log;
  const fs::path output = fs::read_symlink(proc / "fd" / "1", no_log);
  if (!no_log && output.is_absolute() && fs::is_regular_file(output, no_log))
    image.log = output.string();
  return image;
}

bool signal_and_wait(pid_t pid, int signal, std::chrono::milliseconds timeout,
                     std::string_view who) {
  if (::kill(pid, signal) != 0 && errno != ESRCH)
    throw InfrastructureError(std::string(who) + ": signal " + std::to_string(signal) +
                              " failed: " + std::strerror(errno) +
                              "; run as the server's user, or root");
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (process_running(pid)) {
    if (std::chrono::steady_clock::now() >= deadline)
      return false;
    std::this_thread::sleep_for(kPoll);
  }
  return true;
}

void start_detached(const std::vector<std::string>& argv, const ProcessImage& image,
                    std::string_view who) {
  std::vector<std::string> args = {kSetsid, "-f"};
  args.insert(args.end(), argv.begin(), argv.end());
  std::string command;
  for (const std::string& arg : argv)
    command += (command.empty() ? "" : " ") + arg;
  std::vector<char*> arg_pointers;
  for (std::string& arg : args)
    arg_pointers.push_back(arg.data());
  arg_pointers.push_back(nullptr);
  std::vector<std::string> environment = image.environment;
  std::vector<char*> env_pointers;
  for (std::string& entry : environment)
    env_pointers.push_back(entry.data());
  env_pointers.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (!image.directory.empty())
    posix_spawn_file_actions_addchdir_np(&actions, image.directory.c_str());
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  // Its output goes on where it went (the start script's server.log).
  const std::string log = image.log.empty() ? "/dev/null" : image.log;
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(), O_WRONLY | O_APPEND, 0);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  // Nothing else of this process's: a descriptor the server inherited (the pipe a test
  // reads this process's output from, say) would stay open as long as it runs.
  posix_spawn_file_actions_addclosefrom_np(&actions, STDERR_FILENO + 1);
  pid_t child = 0;
  const int spawned =
      ::posix_spawn(&child, kSetsid, &actions, nullptr, arg_pointers.data(), env_pointers.data());
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0)
    throw InfrastructureError(std::string(who) + ": starting it again (" + command +
                              ") failed: " + std::strerror(spawned) + "; start it by hand");
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
}

}  // namespace docket::transports::detail
