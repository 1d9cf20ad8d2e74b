// What the `docket bench ...` tool tests share: a temporary directory for a run's
// SQLite files, and running the tool for its one-line JSON report.
#ifndef DOCKET_TESTS_TOOL_BENCH_RUN_H_
#define DOCKET_TESTS_TOOL_BENCH_RUN_H_

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace docket::testing {

// A fresh directory under the system's temporary directory, removed with its files.
class BenchDir {
 public:
  BenchDir();
  ~BenchDir();
  BenchDir(const BenchDir&) = delete;
  BenchDir& operator=(const BenchDir&) = delete;

  // sqlite://<dir>/bench.db
  std::string url() const { return "sqlite://" + (path_ / "bench.db").string(); }
  std::filesystem::path file(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

// Runs `docket args...`, expects exit status 0, nothing on stderr and exactly one line
// on stdout (failing the calling test otherwise), and returns that line parsed.
nlohmann::json run_json(const std::vector<std::string>& args);

}  // namespace docket::testing

#endif  // DOCKET_TESTS_TOOL_BENCH_RUN_H_
