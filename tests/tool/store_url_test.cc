// Every docket command that opens a store, given a store URL it cannot use: an unknown
// scheme, a SQLite URL naming no file or a file in a directory that does not exist, a
// server URL missing what the provider needs, an empty URL. Each is refused input
// (exit status 1) naming the URL, within the time limit, printing nothing on stdout
// and writing nothing: the directory the URLs point into stays empty.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "tool_runner.h"

namespace docket::testing::store_url_test {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

constexpr std::chrono::seconds kRefusalTimeLimit{60};

// The commands that take --store, each with the other options it needs to get as far
// as opening the store.
std::vector<std::vector<std::string>> store_commands() {
  std::vector<std::vector<std::string>> commands = {
      {"inbox", "stats"},
      {"inbox", "cleanup", "--all-tenants", "--older-than", "5d"},
      {"inbox", "failed"},
      {"sagas", "list", "--status", "active"},
      {"projections", "status"},
      {"outbox", "cancel", "--id", "m-1"},
      {"outbox", "stats"},
      {"outbox", "list", "--status", "parked"},
      {"outbox", "replay", "--all"},
      {"outbox", "skip", "--id", "m-1"},
      {"demo", "--orders", "3"},
  };
#if DOCKET_TOOL_HAS_BENCH
  commands.push_back({"bench", "claim", "--messages", "10"});
  commands.push_back({"bench", "events", "--appends", "10"});
  commands.push_back({"bench", "inbox", "--messages", "10"});
  commands.push_back({"bench", "outbox", "--messages", "10"});
#endif
  return commands;
}

struct BadUrl {
  std::string url;
  std::string mentions;  // what the refusal names
};

class StoreUrlTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (std::filesystem::temp_directory_path() / "docket-url-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override {
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }

  std::vector<BadUrl> bad_urls() const {
    const std::string file = (dir_ / "store.db").string();
    const std::string missing = (dir_ / "no-such-directory" / "store.db").string();
    return {
        {"nosuch://" + file, "nosuch://" + file},
        {"sqlite:" + file, "names no SQLite database"},
        {"sqlite://" + missing, missing},
        {"dynamodb://127.0.0.1:1", "region"},
        {"firestore://127.0.0.1:1", "project"},
        {"postgresql://127.0.0.1:notaport/db", "invalid integer value \"notaport\""},
        {"", "store URL"},
    };
  }

  std::filesystem::path dir_;
};

TEST_F(StoreUrlTest, AnUnusableStoreUrlIsRefusedNamingItAndNothingIsWritten) {
  for (const std::vector<std::string>& command : store_commands()) {
    for (const BadUrl& bad : bad_urls()) {
      std::vector<std::string> args = command;
      args.insert(args.end(), {"--store", bad.url});
      const std::string what = command[0] + " " + command[1] + " --store '" + bad.url + "'";
      const ToolRun run = run_docket(args, std::nullopt, kRefusalTimeLimit);
      EXPECT_FALSE(run.timed_out) << what << ": " << describe(run);
      EXPECT_EQ(run.exit_code, 1) << what << ": " << describe(run);
      EXPECT_THAT(run.err, StartsWith("docket: ")) << what;
      EXPECT_THAT(run.err, HasSubstr(bad.mentions)) << what;
      EXPECT_EQ(run.out, "") << what;
      EXPECT_TRUE(std::filesystem::is_empty(dir_)) << what << ": something was written";
    }
  }
}

}  // namespace
}  // namespace docket::testing::store_url_test
