// `docket dashboard` run as a child process for the dashboard's tests, and a plain HTTP
// client for its API: a request is sent byte for byte as the test writes it (any Host,
// Origin or Cookie header, any body), over a socket of its own, so a test can send what
// no browser would.
//
// Invariants: a constructed DashboardProcess has printed its "serving" line (its port
// is known); destroying it sends SIGTERM and waits for the child, killing it after
// kDashboardStopLimit, so no test leaves a server behind.
//
// Thread-safety: objects of one test's thread.
#ifndef DOCKET_TESTS_DASHBOARD_DASHBOARD_PROCESS_H_
#define DOCKET_TESTS_DASHBOARD_DASHBOARD_PROCESS_H_

#include <sys/types.h>

#include <chrono>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace docket::testing {

inline constexpr std::chrono::seconds kDashboardStartLimit{30};
inline constexpr std::chrono::seconds kDashboardStopLimit{30};

class DashboardProcess {
 public:
  // Runs `docket dashboard` with `args` and waits for its "serving http://HOST:PORT/"
  // line. Throws std::runtime_error with what it printed when it exits first or prints
  // nothing within kDashboardStartLimit.
  explicit DashboardProcess(const std::vector<std::string>& args);
  ~DashboardProcess();
  DashboardProcess(const DashboardProcess&) = delete;
  DashboardProcess& operator=(const DashboardProcess&) = delete;

  int port() const { return port_; }
  const std::string& serving_line() const { return serving_line_; }

  // SIGTERM, then waits: the exit status (-1 when it had to be killed) and stderr.
  std::pair<int, std::string> stop();

 private:
  pid_t pid_ = -1;
  int out_fd_ = -1;
  int err_fd_ = -1;
  int port_ = 0;
  std::string serving_line_;
};

struct HttpAnswer {
  int status = 0;
  std::map<std::string, std::string> headers;  // names lower-cased; the last of a name
  std::string body;

  // The body parsed; a JSON null when it is not JSON.
  nlohmann::json json() const;
  std::optional<std::string> header(const std::string& name) const;
};

// Sends one HTTP/1.1 request to 127.0.0.1:`port` and reads the whole answer (the server
// closes each connection). `headers` are sent as given, after a Host header naming
// 127.0.0.1:port unless they hold one. Throws std::runtime_error when the server
// cannot be reached or does not answer within 30 s.
HttpAnswer http_request(int port, const std::string& method, const std::string& path,
                        const std::vector<std::pair<std::string, std::string>>& headers = {},
                        const std::string& body = "");

// A session of the page: its cookie and CSRF token, from GET /api/session.
struct DashboardSession {
  std::string cookie;  // "docket_dashboard_session=..."
  std::string csrf_token;
};
DashboardSession open_dashboard_session(int port);

// POST `path` with `body` as the page sends it: JSON, the session's cookie and token.
HttpAnswer post_action(int port, const DashboardSession& session, const std::string& path,
                       const nlohmann::json& body);

}  // namespace docket::testing

#endif  // DOCKET_TESTS_DASHBOARD_DASHBOARD_PROCESS_H_
