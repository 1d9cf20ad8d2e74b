// dashboard_fixture URL: writes the dashboard's test fixture (dashboard_fixture.h) into
// the store at URL and prints what it wrote as one JSON object, for
// dashboard_browser_test.mjs. Exit 0, or 1 with the error on stderr.
#include <exception>
#include <iostream>
#include <nlohmann/json.hpp>

#include "dashboard_fixture.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: dashboard_fixture STORE_URL\n";
    return 2;
  }
  try {
    const docket::testing::DashboardFixture fixture =
        docket::testing::write_dashboard_fixture(argv[1]);
    nlohmann::json failed = nlohmann::json::array();
    for (const auto& entry : fixture.failed) {
      failed.push_back({{"tenant", entry.tenant},
                        {"message_id", entry.message_id},
                        {"handler_type", entry.handler_type},
                        {"error", entry.error}});
    }
    std::cout << nlohmann::json{{"parked", fixture.parked},
                                {"done", fixture.done},
                                {"pending", fixture.pending},
                                {"failed", failed},
                                {"active_sagas", fixture.active_sagas},
                                {"completed_sagas", fixture.completed_sagas},
                                {"projection_consumer", fixture.projection_consumer}}
                     .dump()
              << '\n';
  } catch (const std::exception& error) {
    std::cerr << "dashboard_fixture: " << error.what() << '\n';
    return 1;
  }
  return 0;
}
