// docket bench keys: the JSON report's invariants for short runs (never its speed: the
// machine's load decides that), its text report, and refused options.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "bench_run.h"
#include "tool_runner.h"

namespace docket::testing::bench_keys_test {
namespace {

using ::testing::HasSubstr;

// The kinds each provider has, as the bench names them.
const std::map<std::string, std::set<std::string>> kKinds = {
    {"firestore", {"inbox", "stream", "saga"}},
    {"elasticsearch", {"inbox"}},
    {"cosmos", {"inbox", "stream", "saga"}},
    {"mongodb", {"inbox", "stream", "saga"}},
    {"redis", {"inbox"}},
    {"dynamodb", {"inbox", "stream", "saga"}}};

double number(const nlohmann::json& c, const std::string& field) {
  return c.at(field).get<double>();
}

// One case: both sides composed `keys` keys of the same bytes; rates agree with counts
// and seconds; the ratio is docket's rate over the raw rate. (Its upper bound is
// checked on longer runs: in a run of one short slice, another process preempting the
// raw side's microseconds would decide it.)
void expect_case_adds_up(const nlohmann::json& c, std::size_t keys) {
  SCOPED_TRACE(c.dump());
  EXPECT_EQ(c.at("keys"), keys);
  EXPECT_EQ(c.at("raw").at("keys"), keys);
  EXPECT_EQ(c.at("output_bytes"), c.at("raw").at("output_bytes"));
  EXPECT_GT(number(c, "input_bytes"), 0.0);
  EXPECT_GE(number(c, "output_bytes"), number(c, "input_bytes"));
  EXPECT_DOUBLE_EQ(number(c, "input_bytes_per_key"),
                   number(c, "input_bytes") / static_cast<double>(keys));
  EXPECT_DOUBLE_EQ(number(c, "output_bytes_per_key"),
                   number(c, "output_bytes") / static_cast<double>(keys));
  EXPECT_LE(number(c, "output_bytes_per_key"), number(c, "limit_bytes"));
  for (const std::string field : {"seconds", "rate", "input_byte_rate", "output_byte_rate",
                                  "raw_rate", "raw_output_byte_rate", "median_slice_ratio"}) {
    EXPECT_GT(number(c, field), 0.0) << field;
  }
  EXPECT_DOUBLE_EQ(number(c, "rate"), static_cast<double>(keys) / number(c, "seconds"));
  EXPECT_DOUBLE_EQ(number(c, "input_byte_rate"), number(c, "input_bytes") / number(c, "seconds"));
  EXPECT_DOUBLE_EQ(number(c, "raw_rate"), c.at("raw").at("rate").get<double>());
  EXPECT_DOUBLE_EQ(number(c, "ratio"), number(c, "rate") / number(c, "raw_rate"));
  EXPECT_GT(number(c, "ratio"), 0.0);
  EXPECT_GE(c.at("slices").get<int>(), 1);
  EXPECT_GE(c.at("tuples").get<int>(), 1);
}

// Every kind of every named provider, realistic then worst case, each with `keys` keys
// (0: a timed run, as many as each case reports); worst-case keys are near
// min(limit, 2048) bytes and longer than the realistic ones.
void expect_cases(const nlohmann::json& report, const std::vector<std::string>& providers,
                  std::size_t keys) {
  const auto& cases = report.at("cases");
  std::size_t expected = 0;
  for (const auto& provider : providers) {
    expected += 2 * kKinds.at(provider).size();
  }
  ASSERT_EQ(cases.size(), expected);
  std::map<std::string, std::set<std::string>> seen;
  for (std::size_t i = 0; i < cases.size(); i += 2) {
    const auto& realistic = cases[i];
    const auto& worst = cases[i + 1];
    expect_case_adds_up(realistic, keys > 0 ? keys : realistic.at("keys").get<std::size_t>());
    expect_case_adds_up(worst, keys > 0 ? keys : worst.at("keys").get<std::size_t>());
    EXPECT_EQ(realistic.at("terms"), "realistic");
    EXPECT_EQ(worst.at("terms"), "worst-case");
    EXPECT_EQ(realistic.at("provider"), worst.at("provider"));
    EXPECT_EQ(realistic.at("kind"), worst.at("kind"));
    seen[realistic.at("provider")].insert(realistic.at("kind").get<std::string>());
    const double cap = std::min(number(worst, "limit_bytes"), 2048.0);
    EXPECT_GT(number(worst, "output_bytes_per_key"), 0.9 * cap) << worst.dump();
    EXPECT_LE(number(worst, "output_bytes_per_key"), cap) << worst.dump();
    EXPECT_GT(number(worst, "input_bytes_per_key"), number(realistic, "input_bytes_per_key"));
  }
  for (const auto& provider : providers) {
    EXPECT_EQ(seen[provider], kKinds.at(provider)) << provider;
  }
}

TEST(BenchKeys, JsonReportCoversEveryProviderAndKind) {
  const auto report = run_json({"bench", "keys", "--iterations", "200", "--json"});
  EXPECT_EQ(report.at("benchmark"), "keys");
  EXPECT_EQ(report.at("iterations"), 200);
  EXPECT_TRUE(report.at("seconds_per_case").is_null());
  const std::vector<std::string> all = {"firestore", "elasticsearch", "cosmos",
                                        "mongodb",   "redis",         "dynamodb"};
  EXPECT_EQ(report.at("providers"), nlohmann::json(all));
  expect_cases(report, all, 200);
  const auto& worst = report.at("worst_case");
  EXPECT_GT(worst.at("input_byte_rate").get<double>(), 0.0);
  EXPECT_GT(worst.at("ratio").get<double>(), 0.0);
  EXPECT_THAT(worst.at("input_byte_rate_case").get<std::string>(), HasSubstr("worst-case"));
  EXPECT_THAT(worst.at("ratio_case").get<std::string>(), HasSubstr("worst-case"));
  EXPECT_EQ(report.at("ok"), true);
  EXPECT_TRUE(report.at("problems").empty());
}

// More keys than one slice holds: the run spans several slices, every key counted once.
TEST(BenchKeys, NamedProvidersOnlyInTheirOrder) {
  const auto report = run_json({"bench", "keys", "--iterations", "20000", "--provider", "redis",
                                "--provider", "cosmos", "--json"});
  EXPECT_EQ(report.at("providers"), nlohmann::json({"redis", "cosmos"}));
  expect_cases(report, {"redis", "cosmos"}, 20000);
  EXPECT_EQ(report.at("cases")[0].at("shape"), "inbox entry id");
  EXPECT_EQ(report.at("cases")[0].at("field"), "key");
  EXPECT_EQ(report.at("cases")[2].at("provider"), "cosmos");
  EXPECT_GT(report.at("cases")[1].at("slices").get<int>(), 1);
}

TEST(BenchKeys, SecondsBoundTheRun) {
  const auto report =
      run_json({"bench", "keys", "--seconds", "0.02", "--provider", "elasticsearch", "--json"});
  EXPECT_DOUBLE_EQ(report.at("seconds_per_case").get<double>(), 0.02);
  EXPECT_TRUE(report.at("iterations").is_null());
  const auto& cases = report.at("cases");
  ASSERT_EQ(cases.size(), 2u);
  for (const auto& c : cases) {
    expect_case_adds_up(c, c.at("keys").get<std::size_t>());
    // Both sides together ran at least the case's time, and about as long.
    const double both = number(c, "seconds") + c.at("raw").at("seconds").get<double>();
    EXPECT_GE(both, 0.02);
    EXPECT_LT(both, 2.0);
  }
}

// Composing a key is never ten times faster than copying its bytes: over runs of 50 ms
// a case, both the ratio and the median slice ratio are within (0, 10].
TEST(BenchKeys, RatioIsWithinTenOverManySlices) {
  const auto report = run_json({"bench", "keys", "--seconds", "0.05", "--provider", "firestore",
                                "--provider", "dynamodb", "--json"});
  expect_cases(report, {"firestore", "dynamodb"}, 0);
  for (const auto& c : report.at("cases")) {
    SCOPED_TRACE(c.dump());
    for (const std::string field : {"ratio", "median_slice_ratio"}) {
      EXPECT_GT(number(c, field), 0.0) << field;
      EXPECT_LE(number(c, field), 10.0) << field;
    }
  }
  EXPECT_GT(report.at("worst_case").at("ratio").get<double>(), 0.0);
  EXPECT_LE(report.at("worst_case").at("ratio").get<double>(), 10.0);
}

TEST(BenchKeys, TextReportNamesBothSidesAndTheRatio) {
  const ToolRun run =
      run_docket({"bench", "keys", "--iterations", "100", "--provider", "firestore"});
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_EQ(run.err, "");
  EXPECT_THAT(run.out, HasSubstr("100 keys per side per case"));
  EXPECT_THAT(run.out, HasSubstr("raw keys/s"));
  EXPECT_THAT(run.out, HasSubstr("ratio"));
  for (const std::string row :
       {"firestore     inbox   realistic", "firestore     stream  worst-case",
        "firestore     saga    worst-case"}) {
    EXPECT_THAT(run.out, HasSubstr(row));
  }
  EXPECT_THAT(run.out, HasSubstr("worst-case terms: slowest "));
}

// An option value no run can use is a usage error (exit status 2, naming the option and
// its range), refused before anything is opened.
TEST(BenchKeys, UnusableOptionsAreRefused) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--seconds", "0"}, "--seconds is 0; pass 0.01 to 60"},
      {{"--seconds", "61"}, "--seconds is 61; pass 0.01 to 60"},
      {{"--seconds", "-1"}, "--seconds is -1"},
      {{"--seconds", "nan"}, "--seconds is nan"},
      {{"--seconds", "inf"}, "--seconds is inf"},
      {{"--iterations", "0"}, "--iterations is 0; pass 1 to 1000000000"},
      {{"--iterations", "1000000001"}, "--iterations is 1000000001; pass 1 to 1000000000"},
      {{"--seconds", "1", "--iterations", "5"}, "--seconds and --iterations are both given"},
      {{"--provider", "redis", "--provider", "redis"}, "--provider redis is given twice"}};
  for (const auto& [extra, mentions] : cases) {
    std::vector<std::string> args = {"bench", "keys"};
    args.insert(args.end(), extra.begin(), extra.end());
    const ToolRun run = run_docket(args);
    EXPECT_EQ(run.exit_code, 2) << describe(run);
    EXPECT_THAT(run.err, HasSubstr(mentions));
    EXPECT_EQ(run.out, "");
  }
}

// What is not a number of the option's kind, or names no provider, is a usage error
// (exit status 2, naming the option).
TEST(BenchKeys, MalformedOptionsAreUsageErrors) {
  for (const auto& [option, value] :
       std::vector<std::pair<std::string, std::string>>{{"--iterations", "-5"},
                                                        {"--iterations", "1.5"},
                                                        {"--iterations", "18446744073709551616"},
                                                        {"--seconds", "ten"},
                                                        {"--provider", "oracle"},
                                                        {"--iteration", "5"}}) {
    const ToolRun run = run_docket({"bench", "keys", option, value});
    EXPECT_EQ(run.exit_code, 2) << option << " " << value << ": " << describe(run);
    EXPECT_THAT(run.err, HasSubstr(option)) << value;
    EXPECT_EQ(run.out, "");
  }
  const ToolRun run = run_docket({"bench", "keys", "--provider", "oracle"});
  EXPECT_THAT(run.err, HasSubstr("valid providers: firestore elasticsearch cosmos"));
}

}  // namespace
}  // namespace docket::testing::bench_keys_test
