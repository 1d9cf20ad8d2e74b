// What the `docket bench ...` tool tests share: a temporary directory for a run's
// SQLite files, and running the tool for its one-line JSON report.
#ifndef DOCKET_TESTS_TOOL_BENCH_RUN_H_
#define DOCKET_TESTS_TOOL_BENCH_RUN_H_

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
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

// The invariants of a `docket bench claim --json` report of `messages` messages, each
// delivered once with its handler's effect, on `threads` threads after `warmup` untimed
// ones: every count adds up on both sides, exactly one effect per message, the rates
// and their ratio.
void expect_claim_report(const nlohmann::json& report, int messages, int threads, int warmup = 0);

// Options after `docket bench <command> --store <url>`, and what the refusal mentions.
using Refusals = std::vector<std::pair<std::vector<std::string>, std::string>>;

// Runs each case and expects exit status 1 (refused: a well-formed command line naming
// what docket cannot use, e.g. a transport URL) with the mention on stderr, nothing on
// stdout, and no database file written in `dir`.
void expect_refusals(const std::string& command, const BenchDir& dir, const Refusals& cases);

// The same for option values the benchmark cannot run with (a count out of range,
// options that contradict): usage errors, exit status 2.
void expect_usage_errors(const std::string& command, const BenchDir& dir, const Refusals& cases);

// `docket bench <command> --store memory:` (and sqlite::memory:) with `extra`: refused,
// exit status 1, naming the missing durable commit.
void expect_in_memory_refused(const std::string& command, const std::vector<std::string>& extra);

// `docket bench <command> --store <dir's file> <option> 5`: exit status 2, naming it.
void expect_unknown_option(const std::string& command, const std::string& option);

}  // namespace docket::testing

#endif  // DOCKET_TESTS_TOOL_BENCH_RUN_H_
