#include "host_health_check.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "projections_command.h"

namespace docket::tool {

HostCheck check_host_health_file(const std::string& path, std::chrono::microseconds max_age,
                                 Timestamp now) {
  std::ifstream in(path);
  if (!in) {
    return {false, "cannot read '" + path +
                       "': no service host writes it (is the service running, with "
                       "ServiceHostSettings::health_file set to this path?)"};
  }
  std::stringstream text;
  text << in.rdbuf();
  const nlohmann::json health = nlohmann::json::parse(text.str(), nullptr, false);
  if (health.is_discarded() || !health.is_object() || !health.contains("written_at_us") ||
      !health["written_at_us"].is_number_integer() || !health.contains("loops") ||
      !health["loops"].is_array()) {
    return {false, "'" + path + "' is not a service host's health file"};
  }
  const Timestamp written{std::chrono::microseconds(health["written_at_us"].get<std::int64_t>())};
  const auto age = std::chrono::duration_cast<std::chrono::microseconds>(now - written);
  const std::string pid = health.value("pid", nlohmann::json(0)).dump();
  if (age > max_age) {
    return {false, "written " + format_projection_lag(age) + " ago (max " +
                       format_projection_lag(max_age) + "): the host (pid " + pid +
                       ") stopped rewriting it; it died, hangs, or cannot write the file"};
  }
  if (!health.value("running", false)) {
    return {false, "the host (pid " + pid + ") is not running: it stopped"};
  }
  std::string failing;
  for (const nlohmann::json& loop : health["loops"]) {
    const std::string state = loop.value("state", "");
    if (state == "restarting" || state == "finished") {
      failing += (failing.empty() ? "" : "; ") + loop.value("name", std::string("?")) + " " +
                 state + " after " + loop.value("restarts", nlohmann::json(0)).dump() +
                 " restarts" +
                 (loop.value("last_error", "").empty()
                      ? std::string()
                      : ", last error: " + loop.value("last_error", std::string()));
    }
  }
  if (!health.value("healthy", false) || !failing.empty()) {
    return {false, failing.empty() ? "the host (pid " + pid + ") says it is not healthy" : failing};
  }
  return {true, std::to_string(health["loops"].size()) + " loops running (pid " + pid +
                    ", written " + format_projection_lag(age) + " ago)"};
}

}  // namespace docket::tool
