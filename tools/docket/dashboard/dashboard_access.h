// Who may use `docket dashboard`, and which requests may change anything.
//
//  - With a token (--token, required off loopback): every request carries it, as the
//    cookie docket_dashboard_token (set by visiting /?token=T once, which redirects to
//    / so the token leaves the address bar) or as "Authorization: Bearer T"; compared
//    in constant time.
//  - Without one (loopback only): the Host header must name the listening address
//    (127.0.0.1:PORT, localhost:PORT, [::1]:PORT), so a page of another site whose name
//    an attacker re-points at 127.0.0.1 (DNS rebinding) gets nothing.
//  - Every action is a POST of JSON carrying a per-session CSRF token: GET
//    /api/session opens a session (cookie docket_dashboard_session, HttpOnly,
//    SameSite=Strict) and answers its token, which the page sends back in the
//    X-CSRF-Token header. A POST without a known session, with another token, with
//    another Origin or not of application/json is refused with 403 (415) before it
//    reaches a store. Another site can neither read the token (no CORS header is ever
//    sent) nor send the cookie (SameSite=Strict).
//
// Invariants: tokens and session ids are 32 random bytes (std::random_device), hex; at
// most kMaxSessions sessions are kept, the oldest forgotten first.
//
// Thread-safety: every member may be called from many threads at once (a mutex guards
// the sessions; the rest is immutable after construction).
#ifndef DOCKET_TOOLS_DOCKET_DASHBOARD_DASHBOARD_ACCESS_H_
#define DOCKET_TOOLS_DOCKET_DASHBOARD_DASHBOARD_ACCESS_H_

#include <atomic>
#include <cstddef>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "dashboard/http_server.h"
#include "listen_address.h"

namespace docket::tool {

inline constexpr std::size_t kMaxSessions = 1000;
inline constexpr std::string_view kTokenCookie = "docket_dashboard_token";
inline constexpr std::string_view kSessionCookie = "docket_dashboard_session";
inline constexpr std::string_view kCsrfHeader = "x-csrf-token";

// Throws UsageError (exit 2) for a --token that is shorter than 16 or longer than 256
// characters or holds a character outside A-Z a-z 0-9 . _ ~ - (which pass unchanged
// through a cookie, a header and a URL).
void check_dashboard_token(std::string_view token);

class DashboardAccess {
 public:
  DashboardAccess(const ListenAddress& listen, std::optional<std::string> token);

  // The port listened on, once known (--listen's port 0 picks one when listening).
  void set_port(int port) { port_.store(port); }

  // The refusal of a request that may not even read (401 without the token, 421 for a
  // foreign Host), or nullopt.
  std::optional<HttpResponse> refuse_reader(const HttpRequest& request) const;
  // GET /?token=T: the redirect to / that sets the token cookie, or nullopt when the
  // request carries no token parameter.
  std::optional<HttpResponse> token_login(const HttpRequest& request) const;
  // GET /api/session: a new session's cookie and CSRF token.
  HttpResponse open_session();
  // The refusal (403, 415) of a POST that may not act, or nullopt.
  std::optional<HttpResponse> refuse_action(const HttpRequest& request) const;

 private:
  bool host_allowed(const std::string& host) const;

  ListenAddress listen_;
  std::atomic<int> port_;
  std::optional<std::string> token_;
  mutable std::mutex mutex_;
  std::map<std::string, std::string> sessions_;  // session id -> CSRF token
  std::deque<std::string> session_order_;        // oldest first
};

// A JSON error answer: {"error": message}.
HttpResponse dashboard_error(int status, std::string_view message);

}  // namespace docket::tool

#endif  // DOCKET_TOOLS_DOCKET_DASHBOARD_DASHBOARD_ACCESS_H_
