#include "transports/local_server_process.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace docket::transports::detail {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kListenState = "0A";  // TCP_LISTEN in /proc/net/tcp

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

}  // namespace docket::transports::detail
