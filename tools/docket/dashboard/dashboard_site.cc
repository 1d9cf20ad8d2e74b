#include "dashboard/dashboard_site.h"

#include <string>

#include "dashboard/dashboard_assets.h"

namespace docket::tool {

HttpResponse DashboardSite::handle(const HttpRequest& request) {
  HttpResponse response = route(request);
  response.headers.emplace_back("X-Content-Type-Options", "nosniff");
  response.headers.emplace_back("X-Frame-Options", "DENY");
  response.headers.emplace_back("Referrer-Policy", "no-referrer");
  response.headers.emplace_back(
      "Content-Security-Policy",
      "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
      "img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
  return response;
}

HttpResponse DashboardSite::route(const HttpRequest& request) {
  if (request.path == "/" && request.method == "GET") {
    if (std::optional<HttpResponse> login = access_.token_login(request)) {
      return *login;
    }
  }
  if (std::optional<HttpResponse> refused = access_.refuse_reader(request)) {
    return *refused;
  }
  if (request.path == "/api/session") {
    if (request.method != "GET") {
      return dashboard_error(405, "/api/session takes GET only");
    }
    return access_.open_session();
  }
  if (request.path.starts_with("/api/")) {
    if (request.method == "POST") {
      if (std::optional<HttpResponse> refused = access_.refuse_action(request)) {
        return *refused;
      }
    } else if (request.method != "GET") {
      return dashboard_error(405, "the API takes GET (reads) and POST (actions) only");
    }
    return api_.answer(request);
  }
  if (request.method == "GET") {
    for (const DashboardAsset& asset : dashboard_assets()) {
      if (asset.path == request.path) {
        return {.content_type = std::string(asset.content_type),
                .body = std::string(asset.content)};
      }
    }
  }
  return dashboard_error(404, "nothing here: the dashboard is at /");
}

}  // namespace docket::tool
