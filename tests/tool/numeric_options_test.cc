// Every numeric option of every docket command, given a negative, a zero, an
// overflowing and a non-numeric value. The rule the tool keeps, which
// docs/reliability.md states:
//   - text that is no value of the option's kind (a negative count, digits past 64
//     bits, a word where a number goes, a duration without its unit) and a value
//     outside the option's range (zero orders, a negative version, 0d, and in the
//     benchmarks' own checks, bench/option_checks.h, zero threads or a share outside
//     0..1) are one kind of mistake, a usage error: exit status 2, the option named,
//     before anything is opened;
//   - either way the run ends within its time limit, prints nothing on stdout and
//     writes nothing: the store named on the command line (a SQLite file in a fresh
//     directory) is never created.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "tool_runner.h"

namespace docket::testing::numeric_options_test {
namespace {

using ::testing::HasSubstr;

// A bad value never takes long to refuse; a run past this is a hang.
constexpr std::chrono::seconds kRefusalTimeLimit{60};

enum class Kind {
  kCount,     // whole_count(): decimal digits within 64 bits
  kReal,      // a floating-point number; range checked by the command
  kSigned,    // a signed 64-bit integer; range checked by the command
  kDuration,  // a whole number and a unit (90s, 15m, 12h, 30d)
};

struct NumericOption {
  std::vector<std::string> command;  // e.g. {"bench", "inbox"}
  std::string option;
  Kind kind;
  // Exit status of `option 0` (0d for a duration); nullopt where 0 is a valid value
  // that would start a run (--warmup 0, --seed 0), so it is not run here.
  std::optional<int> zero_exit;
  bool takes_store = true;  // given --store (or, for the demo, --dir) to check untouched
  std::vector<std::string> required{};  // the command's other required options
  // What a refusal names when not the option itself: the keys commands report a
  // negative version as the key composition does, naming the version.
  std::string mentions = option;
};

// A fresh directory for the store a run is pointed at, removed afterwards.
class StoreDir {
 public:
  StoreDir() {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "docket-numeric-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) {
      throw std::runtime_error("mkdtemp failed");
    }
    path_ = pattern;
  }
  ~StoreDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  StoreDir(const StoreDir&) = delete;
  StoreDir& operator=(const StoreDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  std::string url() const { return "sqlite://" + (path_ / "store.db").string(); }
  bool empty() const { return std::filesystem::is_empty(path_); }

 private:
  std::filesystem::path path_;
};

std::vector<NumericOption> every_numeric_option() {
  std::vector<NumericOption> options = {
      {{"demo"}, "--orders", Kind::kCount, 2},
      {{"demo"}, "--seed", Kind::kCount, std::nullopt},
      {{"keys", "stream"},
       "--version",
       Kind::kSigned,
       0,
       false,
       {"--provider", "firestore", "--tenant", "acme", "--aggregate-type", "Order",
        "--aggregate-id", "A-1"},
       "version"},
      {{"inbox", "cleanup"}, "--older-than", Kind::kDuration, 2, true, {"--all-tenants"}},
      {{"inbox", "cleanup"},
       "--batch",
       Kind::kCount,
       2,
       true,
       {"--all-tenants", "--older-than", "5d"}},
      {{"inbox", "failed"}, "--limit", Kind::kCount, 2},
      {{"sagas", "list"}, "--limit", Kind::kCount, 2},
      {{"sagas", "list"}, "--older-than", Kind::kDuration, 2},
      {{"projections", "status"}, "--limit", Kind::kCount, 2},
      {{"projections", "rebuild"}, "--batch", Kind::kCount, 2, true, {"--consumer", "c"}},
      {{"outbox", "list"}, "--limit", Kind::kCount, 2, true, {"--status", "parked"}},
      {{"outbox", "list"}, "--since", Kind::kDuration, 2, true, {"--status", "parked"}},
      {{"outbox", "replay"}, "--limit", Kind::kCount, 2, true, {"--all"}},
      {{"events", "show"},
       "--from-version",
       Kind::kCount,
       std::nullopt,
       true,
       {"--tenant", "acme", "--aggregate-type", "order", "--aggregate-id", "o-1"}},
      {{"migrate", "scan"}, "--examples", Kind::kCount, std::nullopt},
      {{"chaos"}, "--kills", Kind::kCount, 2},
      {{"chaos"}, "--seed", Kind::kCount, std::nullopt},
      {{"chaos"}, "--rate", Kind::kCount, 2},
      {{"chaos"}, "--drain-timeout", Kind::kCount, 2},
      {{"soak"}, "--rate", Kind::kCount, 2},
      {{"soak"}, "--duration", Kind::kDuration, 2},
      {{"soak"}, "--retention", Kind::kDuration, 2},
      {{"soak"}, "--sample-every", Kind::kDuration, 2},
  };
#if DOCKET_TOOL_HAS_BENCH
  const std::vector<std::string> kRelayTransport = {"--transport",
                                                    "amqp://127.0.0.1:1/?exchange=x"};
  const std::vector<NumericOption> bench = {
      {{"bench", "claim"}, "--messages", Kind::kCount, 2},
      {{"bench", "claim"}, "--warmup", Kind::kCount, std::nullopt},
      {{"bench", "claim"}, "--threads", Kind::kCount, 2},
      {{"bench", "claim"}, "--duplicates", Kind::kReal, std::nullopt, true, {"--messages", "10"}},
      {{"bench", "events"}, "--appends", Kind::kCount, 2},
      {{"bench", "events"}, "--events-per-append", Kind::kCount, 2},
      {{"bench", "events"}, "--streams", Kind::kCount, 2},
      {{"bench", "events"}, "--threads", Kind::kCount, 2},
      {{"bench", "events"}, "--loads", Kind::kCount, 2},
      {{"bench", "events"}, "--stream-length", Kind::kCount, 2},
      {{"bench", "inbox"}, "--messages", Kind::kCount, 2},
      {{"bench", "inbox"}, "--warmup", Kind::kCount, std::nullopt, true, {"--messages", "10"}},
      {{"bench", "inbox"}, "--duplicates", Kind::kReal, std::nullopt, true, {"--messages", "10"}},
      {{"bench", "inbox"}, "--batch", Kind::kCount, 2, true, {"--messages", "10"}},
      {{"bench", "inbox"}, "--threads", Kind::kCount, 2, true, {"--messages", "10"}},
      {{"bench", "inbox"}, "--segment", Kind::kCount, 2, true, {"--messages", "10"}},
      {{"bench", "keys"}, "--seconds", Kind::kReal, 2, false},
      {{"bench", "keys"}, "--iterations", Kind::kCount, 2, false},
      {{"bench", "outbox"}, "--messages", Kind::kCount, 2},
      {{"bench", "outbox"}, "--threads", Kind::kCount, 2},
      {{"bench", "outbox"}, "--batch", Kind::kCount, 2},
      {{"bench", "outbox"}, "--relays", Kind::kCount, 2},
      // The broker is never reached: the values are refused first.
      {{"bench", "relay"}, "--messages", Kind::kCount, 2, true, kRelayTransport},
      {{"bench", "relay"}, "--batch", Kind::kCount, 2, true, kRelayTransport},
      {{"bench", "relay"}, "--latency-messages", Kind::kCount, std::nullopt, true, kRelayTransport},
      {{"bench", "relay"}, "--latency-rate", Kind::kCount, 2, true, kRelayTransport},
      {{"bench", "relay"}, "--poll-ms", Kind::kCount, 2, true, kRelayTransport},
  };
  options.insert(options.end(), bench.begin(), bench.end());
#endif
  return options;
}

struct BadValue {
  std::string text;
  int exit_code;
};

// The bad values of an option's kind and the exit status each must give.
std::vector<BadValue> bad_values(const NumericOption& option) {
  switch (option.kind) {
    case Kind::kCount:
      return {{"-5", 2}, {"99999999999999999999", 2}, {"ten", 2}, {"1.5", 2}};
    case Kind::kReal:
      // A negative or huge real number, or a NaN, is a number: the benchmark refuses
      // its range, a usage error all the same.
      return {{"-5", 2}, {"99999999999999999999", 2}, {"ten", 2}, {"nan", 2}};
    case Kind::kSigned:
      return {{"-5", 2}, {"99999999999999999999", 2}, {"ten", 2}, {"1.5", 2}};
    case Kind::kDuration:
      return {{"-5d", 2}, {"99999999999999999999d", 2}, {"tend", 2}, {"5", 2}, {"1.5d", 2}};
  }
  return {};
}

std::string zero_text(const NumericOption& option) {
  return option.kind == Kind::kDuration ? "0d" : "0";
}

// Runs `option text` and checks the exit status, the option named on stderr, nothing on
// stdout, no hang and, for a command given a store, no store written.
void expect_refused(const NumericOption& option, const std::string& text, int exit_code) {
  const std::string what = option.command.back() + " " + option.option + " " + text;
  StoreDir dir;
  std::vector<std::string> args = option.command;
  if (option.takes_store) {
    const bool demo = option.command.front() == "demo";
    args.insert(args.end(), {demo ? "--dir" : "--store", demo ? dir.path().string() : dir.url()});
  }
  args.insert(args.end(), option.required.begin(), option.required.end());
  args.insert(args.end(), {option.option, text});
  const ToolRun run = run_docket(args, std::nullopt, kRefusalTimeLimit);
  EXPECT_FALSE(run.timed_out) << what << ": " << describe(run);
  EXPECT_EQ(run.exit_code, exit_code) << what << ": " << describe(run);
  EXPECT_THAT(run.err, HasSubstr(option.mentions)) << what;
  EXPECT_EQ(run.out, "") << what;
  EXPECT_TRUE(dir.empty()) << what << ": something was written in " << dir.path();
}

TEST(NumericOptions, BadTextIsAUsageErrorAndAnOutOfRangeValueIsRefusedWritingNothing) {
  for (const NumericOption& option : every_numeric_option()) {
    for (const BadValue& bad : bad_values(option)) {
      expect_refused(option, bad.text, bad.exit_code);
    }
    if (option.zero_exit && *option.zero_exit != 0) {
      expect_refused(option, zero_text(option), *option.zero_exit);
    }
  }
}

// Zero is a version like any other: the first event of a stream.
TEST(NumericOptions, ZeroVersionIsTheFirstEventsDocument) {
  const ToolRun run =
      run_docket({"keys", "stream", "--provider", "firestore", "--tenant", "acme",
                  "--aggregate-type", "Order", "--aggregate-id", "A-1", "--version", "0"},
                 std::nullopt, kRefusalTimeLimit);
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_EQ(run.out, "t:acme:Order:A-1:0\n");
}

}  // namespace
}  // namespace docket::testing::numeric_options_test
