#include "dashboard_process.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <regex>
#include <stdexcept>

namespace docket::testing {
namespace {

using Clock = std::chrono::steady_clock;

// Reads what is available on `fd` into `into` until `done` holds or `deadline`; false
// when the fd reached its end first.
template <class Done>
bool read_until(int fd, std::string& into, Clock::time_point deadline, const Done& done) {
  std::array<char, 4096> chunk{};
  while (!done(into)) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) {
      return true;
    }
    pollfd wanted{.fd = fd, .events = POLLIN, .revents = 0};
    const int ready = ::poll(&wanted, 1, static_cast<int>(left.count()));
    if (ready < 0 && errno == EINTR) {
      continue;
    }
    if (ready <= 0) {
      return true;
    }
    const ssize_t got = ::read(fd, chunk.data(), chunk.size());
    if (got <= 0) {
      return false;
    }
    into.append(chunk.data(), static_cast<std::size_t>(got));
  }
  return true;
}

std::string drain(int fd) {
  std::string out;
  fcntl(fd, F_SETFL, O_NONBLOCK);
  read_until(fd, out, Clock::now() + std::chrono::seconds(2),
             [](const std::string&) { return false; });
  return out;
}

}  // namespace

DashboardProcess::DashboardProcess(const std::vector<std::string>& args) {
  std::vector<std::string> argv_text{DOCKET_TOOL_PATH, "dashboard"};
  argv_text.insert(argv_text.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& arg : argv_text) {
    argv.push_back(arg.data());
  }
  argv.push_back(nullptr);
  int out[2];
  int err[2];
  if (::pipe2(out, O_CLOEXEC) != 0 || ::pipe2(err, O_CLOEXEC) != 0) {
    throw std::runtime_error("cannot make pipes for docket dashboard");
  }
  pid_ = ::fork();
  if (pid_ < 0) {
    throw std::runtime_error("cannot fork for docket dashboard");
  }
  if (pid_ == 0) {
    ::dup2(out[1], 1);
    ::dup2(err[1], 2);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  ::close(out[1]);
  ::close(err[1]);
  out_fd_ = out[0];
  err_fd_ = err[0];
  std::string printed;
  read_until(out_fd_, printed, Clock::now() + kDashboardStartLimit,
             [](const std::string& text) { return text.find('\n') != std::string::npos; });
  std::smatch match;
  static const std::regex kServing("serving http://[^ ]*:([0-9]+)/");
  if (!std::regex_search(printed, match, kServing)) {
    const auto [code, err_text] = stop();
    throw std::runtime_error("docket dashboard did not start (exit " + std::to_string(code) +
                             "): stdout: " + printed + " stderr: " + err_text);
  }
  port_ = std::stoi(match[1].str());
  serving_line_ = printed.substr(0, printed.find('\n'));
}

DashboardProcess::~DashboardProcess() {
  if (pid_ > 0) {
    stop();
  }
}

std::pair<int, std::string> DashboardProcess::stop() {
  if (pid_ <= 0) {
    return {-1, ""};
  }
  ::kill(pid_, SIGTERM);
  int status = 0;
  const Clock::time_point deadline = Clock::now() + kDashboardStopLimit;
  pid_t done = 0;
  while ((done = ::waitpid(pid_, &status, WNOHANG)) == 0 && Clock::now() < deadline) {
    pollfd none{.fd = -1, .events = 0, .revents = 0};
    ::poll(&none, 0, 20);  // the child's exit is not an fd to wait on; poll its status
  }
  if (done == 0) {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, &status, 0);
    status = -1;
  }
  pid_ = -1;
  const std::string err_text = drain(err_fd_);
  ::close(out_fd_);
  ::close(err_fd_);
  return {status >= 0 && WIFEXITED(status) ? WEXITSTATUS(status) : -1, err_text};
}

nlohmann::json HttpAnswer::json() const {
  return nlohmann::json::parse(body, nullptr, false).is_discarded() ? nlohmann::json(nullptr)
                                                                    : nlohmann::json::parse(body);
}

std::optional<std::string> HttpAnswer::header(const std::string& name) const {
  const auto found = headers.find(name);
  return found == headers.end() ? std::nullopt : std::optional(found->second);
}

HttpAnswer http_request(int port, const std::string& method, const std::string& path,
                        const std::vector<std::pair<std::string, std::string>>& headers,
                        const std::string& body) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (fd < 0 || ::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    if (fd >= 0)
      ::close(fd);
    throw std::runtime_error("cannot connect to the dashboard on port " + std::to_string(port));
  }
  std::string request = method + " " + path + " HTTP/1.1\r\n";
  const bool has_host = std::any_of(headers.begin(), headers.end(),
                                    [](const auto& header) { return header.first == "Host"; });
  if (!has_host) {
    request += "Host: 127.0.0.1:" + std::to_string(port) + "\r\n";
  }
  for (const auto& [name, value] : headers) {
    request += name + ": " + value + "\r\n";
  }
  request +=
      "Content-Length: " + std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" + body;
  for (std::size_t sent = 0; sent < request.size();) {
    const ssize_t wrote = ::send(fd, request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
    if (wrote <= 0) {
      ::close(fd);
      throw std::runtime_error("cannot send a request to the dashboard");
    }
    sent += static_cast<std::size_t>(wrote);
  }
  std::string raw;
  const bool timed_out = read_until(fd, raw, Clock::now() + std::chrono::seconds(30),
                                    [](const std::string&) { return false; });
  ::close(fd);
  if (timed_out) {
    throw std::runtime_error("the dashboard did not finish its answer within 30 s: " + raw);
  }
  const std::size_t head_end = raw.find("\r\n\r\n");
  if (raw.size() < 12 || head_end == std::string::npos) {
    throw std::runtime_error("the dashboard's answer is no HTTP: " + raw);
  }
  HttpAnswer answer;
  answer.status = std::stoi(raw.substr(9, 3));
  answer.body = raw.substr(head_end + 4);
  std::size_t line_start = raw.find("\r\n") + 2;
  while (line_start < head_end) {
    const std::size_t line_end = raw.find("\r\n", line_start);
    const std::string line = raw.substr(line_start, line_end - line_start);
    const std::size_t colon = line.find(':');
    if (colon != std::string::npos) {
      std::string name = line.substr(0, colon);
      std::transform(name.begin(), name.end(), name.begin(),
                     [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      answer.headers[name] = line.substr(line.find_first_not_of(' ', colon + 1));
    }
    line_start = line_end + 2;
  }
  return answer;
}

DashboardSession open_dashboard_session(int port) {
  const HttpAnswer answer = http_request(port, "GET", "/api/session");
  const std::optional<std::string> set_cookie = answer.header("set-cookie");
  if (answer.status != 200 || !set_cookie) {
    throw std::runtime_error("GET /api/session answered " + std::to_string(answer.status) + ": " +
                             answer.body);
  }
  return {.cookie = set_cookie->substr(0, set_cookie->find(';')),
          .csrf_token = answer.json()["csrf_token"].get<std::string>()};
}

HttpAnswer post_action(int port, const DashboardSession& session, const std::string& path,
                       const nlohmann::json& body) {
  return http_request(port, "POST", path,
                      {{"Content-Type", "application/json"},
                       {"Cookie", session.cookie},
                       {"X-CSRF-Token", session.csrf_token}},
                      body.dump());
}

}  // namespace docket::testing
