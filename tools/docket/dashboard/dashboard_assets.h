// The dashboard's page: the static files of tools/docket/dashboard/assets/ (index.html,
// dashboard.css, dashboard.js), compiled into the tool at build time by
// embed_assets.cmake (a plain CMake step: nothing is fetched at build or run time, and
// the page loads nothing from elsewhere).
//
// Thread-safety: immutable data.
#ifndef DOCKET_TOOLS_DOCKET_DASHBOARD_DASHBOARD_ASSETS_H_
#define DOCKET_TOOLS_DOCKET_DASHBOARD_DASHBOARD_ASSETS_H_

#include <span>
#include <string_view>

namespace docket::tool {

struct DashboardAsset {
  std::string_view path;          // "/" for index.html, "/dashboard.js", ...
  std::string_view content_type;  // with its charset
  std::string_view content;
};

// Every asset, in the order embed_assets.cmake was given them.
std::span<const DashboardAsset> dashboard_assets();

}  // namespace docket::tool

#endif  // DOCKET_TOOLS_DOCKET_DASHBOARD_DASHBOARD_ASSETS_H_
