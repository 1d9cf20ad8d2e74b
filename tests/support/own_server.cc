#include "support/own_server.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <stdexcept>

namespace docket::testing {

OwnServer::OwnServer(std::string_view scripts, std::string settings)
    : scripts_(scripts), settings_(std::move(settings)) {
  url_ = run("start");
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
