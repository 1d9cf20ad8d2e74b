// What `docket dashboard` answers, request by request: the page (dashboard_assets.h) at
// /, /dashboard.css and /dashboard.js, a session and its CSRF token at /api/session,
// and the JSON API (dashboard_api.h) under /api/, each request first passed through
// DashboardAccess (dashboard_access.h): a reader's token or Host, and for a POST its
// session's CSRF token. Every answer carries headers that keep the page to itself: a
// Content-Security-Policy allowing only its own script, style and API (no inline
// script, no frame), nosniff, no referrer, no caching of API answers.
//
// Thread-safety: handle() may run on many threads at once.
#ifndef DOCKET_TOOLS_DOCKET_DASHBOARD_DASHBOARD_SITE_H_
#define DOCKET_TOOLS_DOCKET_DASHBOARD_DASHBOARD_SITE_H_

#include "dashboard/dashboard_access.h"
#include "dashboard/dashboard_api.h"
#include "dashboard/http_server.h"

namespace docket::tool {

class DashboardSite {
 public:
  DashboardSite(DashboardAccess& access, const DashboardApi& api) : access_(access), api_(api) {}

  HttpResponse handle(const HttpRequest& request);

 private:
  HttpResponse route(const HttpRequest& request);

  DashboardAccess& access_;
  const DashboardApi& api_;
};

}  // namespace docket::tool

#endif  // DOCKET_TOOLS_DOCKET_DASHBOARD_DASHBOARD_SITE_H_
