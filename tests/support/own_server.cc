#include "support/own_server.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "support/loopback_http_server.h"

namespace docket::testing {

OwnServer::OwnServer(std::string_view scripts, std::string settings)
    : scripts_(scripts), settings_(std::move(settings)) {
  url_ = run("start");
  while (!url_.empty() && url_.back() == '\n') {
    url_.pop_back();
  }
}

namespace {

// Whether a start script's output says its port was taken: PostgreSQL, Redis and NATS
// write "address already in use", Node "EADDRINUSE", RabbitMQ "eaddrinuse".
bool address_in_use(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text.find("address already in use") != std::string::npos ||
         text.find("eaddrinuse") != std::string::npos;
}

}  // namespace

OwnServer::OwnServer(std::string_view scripts, int ports,
                     const std::function<std::string(int first_port)>& settings_of)
    : scripts_(scripts) {
  for (int attempt = 1;; ++attempt) {
    settings_ = settings_of(test_support::free_loopback_port_run(ports));
    try {
      url_ = run("start");
      break;
    } catch (const std::runtime_error& error) {
      if (attempt == kPortAttempts || !address_in_use(error.what())) {
        throw;
      }
      try {
        run("stop");  // whatever the failed start left behind
      } catch (const std::runtime_error&) {
      }
    }
  }
  while (!url_.empty() && url_.back() == '\n') {
    url_.pop_back();
  }
}

OwnServer::~OwnServer() {
  try {
    run("stop");
  } catch (const std::exception& error) {
    ADD_FAILURE() << error.what();
  }
}

std::string OwnServer::run(std::string_view script) const {
  const std::string command =
      settings_ + " " DOCKET_SCRIPTS_DIR "/" + scripts_ + "-" + std::string(script) + ".sh";
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) {
    throw std::runtime_error("cannot run " + command);
  }
  std::string out;
  char buffer[256];
  while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) {
    out += buffer;
  }
  if (pclose(pipe) != 0) {
    throw std::runtime_error(command + " failed:\n" + out);
  }
  return out;
}

}  // namespace docket::testing
