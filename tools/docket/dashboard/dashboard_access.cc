#include "dashboard/dashboard_access.h"

#include <nlohmann/json.hpp>
#include <random>

#include "usage_error.h"

namespace docket::tool {
namespace {

std::string dashboard_random_hex() {
  static constexpr char kHex[] = "0123456789abcdef";
  std::random_device device;
  std::string out;
  for (int i = 0; i < 8; ++i) {
    const std::uint32_t word = device();  // 32 bits from the system's entropy source
    for (int shift = 28; shift >= 0; shift -= 4) {
      out += kHex[(word >> shift) & 0xf];
    }
  }
  return out;
}

// Equal texts, compared in time that depends on their lengths only.
bool dashboard_same_secret(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) {
    return false;
  }
  unsigned char diff = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  }
  return diff == 0;
}

std::string dashboard_cookie(std::string_view name, std::string_view value) {
  return std::string(name) + "=" + std::string(value) + "; Path=/; HttpOnly; SameSite=Strict";
}

}  // namespace

HttpResponse dashboard_error(int status, std::string_view message) {
  return {.status = status,
          .body = nlohmann::json{{"error", message}}.dump(
              -1, ' ', false, nlohmann::json::error_handler_t::replace)};
}

void check_dashboard_token(std::string_view token) {
  if (token.size() < 16 || token.size() > 256) {
    throw UsageError("dashboard: --token has " + std::to_string(token.size()) +
                     " characters; pass 16 to 256 (e.g. the output of `openssl rand -hex 32`)");
  }
  for (const char c : token) {
    const bool allowed = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
                         (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '~' || c == '-';
    if (!allowed) {
      throw UsageError(
          "dashboard: --token holds a character other than A-Z a-z 0-9 . _ ~ -; pass a token "
          "of those (e.g. the output of `openssl rand -hex 32`)");
    }
  }
}

DashboardAccess::DashboardAccess(const ListenAddress& listen, std::optional<std::string> token)
    : listen_(listen), port_(listen.port), token_(std::move(token)) {}

bool DashboardAccess::host_allowed(const std::string& host) const {
  const std::string port = ":" + std::to_string(port_.load());
  if (host == listen_.host + port) {
    return true;
  }
  return listen_.loopback &&
         (host == "localhost" + port || host == "127.0.0.1" + port || host == "[::1]" + port);
}

std::optional<HttpResponse> DashboardAccess::refuse_reader(const HttpRequest& request) const {
  if (token_) {
    const std::optional<std::string> cookie = request.cookie(std::string(kTokenCookie));
    const std::optional<std::string> authorization = request.header("authorization");
    const bool by_cookie = cookie && dashboard_same_secret(*cookie, *token_);
    const bool by_header = authorization && authorization->starts_with("Bearer ") &&
                           dashboard_same_secret(authorization->substr(7), *token_);
    if (!by_cookie && !by_header) {
      return dashboard_error(401,
                             "this dashboard needs its token: open /?token=TOKEN once (the token "
                             "`docket dashboard --token` was started with), or send "
                             "\"Authorization: Bearer TOKEN\"");
    }
    return std::nullopt;
  }
  const std::optional<std::string> host = request.header("host");
  if (!host || !host_allowed(*host)) {
    return dashboard_error(421, "this dashboard answers only requests addressed to " +
                                    listen_.host + ":" + std::to_string(port_.load()));
  }
  return std::nullopt;
}

std::optional<HttpResponse> DashboardAccess::token_login(const HttpRequest& request) const {
  const std::optional<std::string> given = request.query_parameter("token");
  if (!given || !token_) {
    return std::nullopt;
  }
  if (!dashboard_same_secret(*given, *token_)) {
    return dashboard_error(401,
                           "the token is wrong; open /?token=TOKEN with the token "
                           "`docket dashboard --token` was started with");
  }
  return HttpResponse{.status = 303,
                      .content_type = "text/plain; charset=utf-8",
                      .body = "signed in\n",
                      .headers = {{"Location", "/"},
                                  {"Set-Cookie", dashboard_cookie(kTokenCookie, *token_)},
                                  {"Cache-Control", "no-store"}}};
}

HttpResponse DashboardAccess::open_session() {
  const std::string id = dashboard_random_hex();
  const std::string csrf = dashboard_random_hex();
  {
    const std::lock_guard lock(mutex_);
    if (sessions_.size() >= kMaxSessions) {
      sessions_.erase(session_order_.front());
      session_order_.pop_front();
    }
    sessions_.emplace(id, csrf);
    session_order_.push_back(id);
  }
  return {.body = nlohmann::json{{"csrf_token", csrf}}.dump(),
          .headers = {{"Set-Cookie", dashboard_cookie(kSessionCookie, id)}}};
}

std::optional<HttpResponse> DashboardAccess::refuse_action(const HttpRequest& request) const {
  const std::optional<std::string> origin = request.header("origin");
  const std::optional<std::string> host = request.header("host");
  // The page's own origin: http://HOST, or https://HOST behind a TLS-terminating proxy
  // that keeps the Host header.
  if (origin && (!host || (*origin != "http://" + *host && *origin != "https://" + *host))) {
    return dashboard_error(403,
                           "an action must come from the dashboard's own page (the Origin "
                           "is another site's); nothing was changed");
  }
  const std::optional<std::string> type = request.header("content-type");
  if (!type || !type->starts_with("application/json")) {
    return dashboard_error(415, "an action is a POST of application/json; nothing was changed");
  }
  const std::optional<std::string> session = request.cookie(std::string(kSessionCookie));
  const std::optional<std::string> csrf = request.header(std::string(kCsrfHeader));
  bool known = false;
  if (session && csrf) {
    const std::lock_guard lock(mutex_);
    const auto found = sessions_.find(*session);
    known = found != sessions_.end() && dashboard_same_secret(found->second, *csrf);
  }
  if (!known) {
    return dashboard_error(403,
                           "an action needs the CSRF token of its session (the X-CSRF-Token "
                           "header the dashboard's page sends); reload the page and try again. "
                           "Nothing was changed");
  }
  return std::nullopt;
}

}  // namespace docket::tool
