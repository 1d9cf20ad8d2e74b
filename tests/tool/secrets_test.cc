// A store URL's password, as user info (`user:password@`) or as a `password=` parameter,
// never appears in anything docket prints: refusals, failures, summaries and JSON
// reports, on every command that takes --store, down every path tried here (a server
// that is not there, a refused URL, and a run that succeeds).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "providers/postgres/tests/postgres_env.h"
#include "providers/postgres/tests/postgres_schema.h"
#include "tool_runner.h"

namespace docket::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr char kUserPassword[] = "s3cr3t-user-pw";
constexpr char kParameterPassword[] = "s3cr3t-param-pw";

// `url` (postgresql://user@host:port/db) with both kinds of password.
std::string with_passwords(const std::string& url) {
  std::string out = url;
  out.insert(out.find('@'), std::string(":") + kUserPassword);
  return out + (out.find('?') == std::string::npos ? "?" : "&") + "password=" + kParameterPassword;
}

// Every command that opens a store, with the options it needs besides --store.
const std::vector<std::vector<std::string>>& store_commands() {
  static const std::vector<std::vector<std::string>> commands = {
      {"bench", "inbox", "--messages", "10"},
      {"bench", "claim", "--messages", "10"},
      {"bench", "events", "--appends", "10", "--streams", "2", "--loads", "2"},
      {"bench", "outbox", "--messages", "10"},
      {"inbox", "stats", "--tenant", "acme"},
      {"inbox", "cleanup", "--older-than", "1d", "--all-tenants", "--dry-run"},
      {"demo", "--orders", "5"},
      {"chaos", "--kills", "1"},
      {"soak", "--duration", "2s", "--sample-every", "1s"},
  };
  return commands;
}

void expect_no_password(const ToolRun& run, const std::string& what) {
  EXPECT_THAT(run.out + run.err, Not(HasSubstr(kUserPassword))) << what << "\n" << describe(run);
  EXPECT_THAT(run.out + run.err, Not(HasSubstr(kParameterPassword))) << what;
}

std::vector<std::string> with_store(std::vector<std::string> args, const std::string& url) {
  args.push_back("--store");
  args.push_back(url);
  return args;
}

TEST(Secrets, AServerThatIsNotThereIsReportedWithoutThePassword) {
  const std::string url = with_passwords("postgresql://docket@127.0.0.1:1/docket");
  for (const auto& command : store_commands()) {
    const ToolRun run = run_docket(with_store(command, url));
    EXPECT_EQ(run.exit_code, 1) << command[0] << " " << command[1] << "\n" << describe(run);
    expect_no_password(run, command[0] + " " + command[1]);
  }
}

TEST(Secrets, ARefusedUrlIsEchoedWithoutThePassword) {
  const std::string url = with_passwords("postgresql://docket@127.0.0.1:notaport/docket");
  for (const auto& command : store_commands()) {
    const ToolRun run = run_docket(with_store(command, url));
    EXPECT_NE(run.exit_code, 0) << command[0] << " " << command[1];
    expect_no_password(run, command[0] + " " + command[1]);
  }
}

// On the PostgreSQL test server, which trusts loopback, so the passwords are carried
// but not checked: reports name the store, masked.
void expect_masked_success(const std::vector<std::string>& command, const std::string& url) {
  const ToolRun run = run_docket(with_store(command, url));
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  expect_no_password(run, command[0] + " " + command[1]);
  EXPECT_THAT(run.out, HasSubstr(":***@")) << describe(run);
}

TEST(Secrets, ASuccessfulRunPrintsTheStoreMasked) {
  const std::string url = with_passwords(test_support::postgres_test_url());
  for (const std::vector<std::string>& command :
       std::vector<std::vector<std::string>>{{"bench", "claim", "--messages", "10", "--json"},
                                             {"bench", "claim", "--messages", "10"},
                                             {"inbox", "stats", "--tenant", "acme"},
                                             {"inbox", "stats", "--tenant", "acme", "--json"}}) {
    expect_masked_success(command, url);
  }
  // The pipelines of chaos and soak relay every message of the outbox they are given: in a
  // schema of the test's own, so that they meet no other test's.
  const test_support::PostgresSchema schema;
  for (const std::vector<std::string>& command : std::vector<std::vector<std::string>>{
           {"chaos", "--kills", "1"},
           {"chaos", "--kills", "1", "--json"},
           {"soak", "--duration", "2s", "--sample-every", "1s"}}) {
    expect_masked_success(command, with_passwords(schema.url()));
  }
}

// A benchmark refuses a URL that sets libpq's `options` (it sets its own), naming the
// URL: masked.
TEST(Secrets, ABenchRefusalOfTheUrlsOptionsNamesItMasked) {
  const test_support::PostgresSchema schema;
  const ToolRun run =
      run_docket(with_store({"bench", "claim", "--messages", "10"}, with_passwords(schema.url())));
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_THAT(run.err, HasSubstr("sets libpq's `options`")) << describe(run);
  expect_no_password(run, "bench claim with options");
}

}  // namespace
}  // namespace docket::testing
