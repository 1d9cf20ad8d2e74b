#include "bench_run.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <stdexcept>

#include "tool_runner.h"

namespace docket::testing {

BenchDir::BenchDir() {
  std::string dir = (std::filesystem::temp_directory_path() / "docket-bench-XXXXXX").string();
  if (mkdtemp(dir.data()) == nullptr) {
    throw std::runtime_error("mkdtemp failed for " + dir);
  }
  path_ = dir;
}

BenchDir::~BenchDir() {
  std::filesystem::remove_all(path_);
}

nlohmann::json run_json(const std::vector<std::string>& args) {
  const ToolRun run = run_docket(args);
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_EQ(run.err, "");
  // Exactly one JSON object on one line.
  EXPECT_EQ(run.out.find('\n'), run.out.size() - 1) << run.out;
  return nlohmann::json::parse(run.out);
}

}  // namespace docket::testing
