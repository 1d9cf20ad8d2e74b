// Every credential a URL can carry, in every provider's and transport's scheme, through
// every command of the tool that takes a URL, never appears in anything it prints:
// stdout or stderr, text or --json, down the paths a user meets first (a URL refused
// for a parameter docket does not know, a server that is not there, a malformed
// option beside the URL) and, on the test servers, runs that succeed.
//
// Each credential is a text of its own, so that a failure names the form that leaked.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>

#include "tool_runner.h"
#if DOCKET_HAVE_POSTGRES
#include "providers/postgres/tests/postgres_env.h"
#include "providers/postgres/tests/postgres_schema.h"
#endif

namespace docket::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr std::chrono::seconds kRunLimit{60};

// A credential form: how it is written into a URL, and the secret it carries.
struct CredentialForm {
  std::string name;    // for failure messages
  std::string secret;  // appears nowhere but in the URL
  bool user_info;      // written as user info (else as a query parameter `name`=secret)
};

const std::vector<CredentialForm>& parameter_forms() {
  static const std::vector<CredentialForm> forms = {
      {"password", "Pw-param-0a1b2c", false},
      {"secret", "Secret-param-3d4e5f", false},
      {"token", "Token-param-6a7b8c", false},
      {"access_token", "AccessToken-9d0e1f", false},
      {"aws_secret_access_key", "AwsSecretKey-2a3b4c", false},
      {"aws_session_token", "AwsSessionToken-5d6e7f", false},
      {"api_key", "ApiKey-8a9b0c", false},
      {"X-Amz-Security-Token", "AmzSecurityToken-1d2e3f", false},
      {"client_secret", "ClientSecret-4a5b6c", false},
      {"sslpassword", "SslPassword-7d8e9f", false},
  };
  return forms;
}

const CredentialForm kUserPassword{"user:password@", "UserPw-0f1e2d", true};
const CredentialForm kUserInfoToken{"token@", "UserInfoToken-3c4b5a", true};

std::vector<std::string> every_secret() {
  std::vector<std::string> secrets{kUserPassword.secret, kUserInfoToken.secret};
  for (const CredentialForm& form : parameter_forms()) {
    secrets.push_back(form.secret);
  }
  return secrets;
}

// `base` ("scheme://host:port/path?first=param" or without a query) with `user_info`
// before its host and every parameter form appended, starting at `first_form` so that
// each form is, in one URL or another, the first parameter a parser meets.
std::string with_credentials(const std::string& base, const std::string& user_info,
                             std::size_t first_form) {
  std::string url = base;
  const std::size_t authority = url.find("://") + 3;
  url.insert(authority, user_info);
  const auto& forms = parameter_forms();
  for (std::size_t i = 0; i < forms.size(); ++i) {
    const CredentialForm& form = forms[(first_form + i) % forms.size()];
    url += (url.find('?') == std::string::npos ? "?" : "&") + form.name + "=" + form.secret;
  }
  return url;
}

// Schemes that read user info without a ':' as a user name, which they print
// (core/url_credentials.h): there it is no credential.
bool reads_a_user_name(const std::string& url) {
  return url.starts_with("postgresql://") || url.starts_with("postgres://");
}

// Two URLs of `base`, between them every form in first place and both kinds of user
// info (the second a user name where the scheme reads one).
std::vector<std::string> credential_urls(const std::string& base) {
  return {with_credentials(base, "docket:" + kUserPassword.secret + "@", 0),
          with_credentials(base, reads_a_user_name(base) ? "app@" : kUserInfoToken.secret + "@",
                           parameter_forms().size() / 2)};
}

void expect_no_secret(const ToolRun& run, const std::string& what) {
  for (const std::string& secret : every_secret()) {
    EXPECT_THAT(run.out, Not(HasSubstr(secret))) << what << "\n" << describe(run);
    EXPECT_THAT(run.err, Not(HasSubstr(secret))) << what << "\n" << describe(run);
  }
}

// Store URLs of every provider scheme whose URLs have an authority, on a port where no
// server listens (loopback port 1), and a scheme no provider of this build opens.
const std::vector<std::string> kStoreBases = {"postgresql://127.0.0.1:1/docket",
                                              "postgres://127.0.0.1:1/docket",
                                              "dynamodb://127.0.0.1:1?region=us-east-1",
                                              "firestore://127.0.0.1:1?project=docket-test",
                                              "sqlite://127.0.0.1:1/tmp/docket-credentials-test.db",
                                              "mongodb://127.0.0.1:1/docket"};

// Transport URLs: RabbitMQ's scheme, and schemes of transports this build has not.
const std::vector<std::string> kTransportBases = {"amqp://127.0.0.1:1/docket?exchange=orders",
                                                  "nats://127.0.0.1:1", "redis://127.0.0.1:1/0",
                                                  "kafka://127.0.0.1:1"};

// Every command that takes a store URL, with what else it needs; {} marks the URL.
const std::vector<std::vector<std::string>> kStoreCommands = {
    {"inbox", "stats", "--store", "{}"},
    {"inbox", "stats", "--store", "{}", "--json", "--tenant", "acme"},
    {"inbox", "cleanup", "--store", "{}", "--older-than", "1d", "--all-tenants", "--dry-run"},
    {"inbox", "cleanup", "--store", "{}", "--older-than", "1d", "--all-tenants", "--json"},
    {"inbox", "failed", "--store", "{}", "--json"},
    {"outbox", "list", "--store", "{}", "--status", "parked"},
    {"outbox", "replay", "--store", "{}", "--all", "--dry-run", "--json"},
    {"outbox", "skip", "--store", "{}", "--id", "m-1", "--dry-run"},
    {"migrate", "scan", "--store", "{}"},
    {"migrate", "scan", "--store", "{}", "--json"},
    {"migrate", "inbox-ids", "--store", "{}", "--dry-run"},
    {"migrate", "tenant-rekey", "--store", "{}", "--tenant", "acme", "--dry-run"},
    {"migrate", "tenant-rekey", "--store", "{}", "--tenant", "acme", "--dry-run", "--json"},
    {"events", "show", "--store", "{}", "--tenant", "acme", "--aggregate-type", "order",
     "--aggregate-id", "o-1"},
    {"events", "show", "--store", "{}", "--tenant", "acme", "--aggregate-type", "order",
     "--aggregate-id", "o-1", "--json"},
    {"sagas", "show", "--store", "{}", "--tenant", "acme", "--saga-type", "checkout", "--saga-id",
     "o-1", "--json"},
    {"sagas", "list", "--store", "{}", "--status", "active", "--older-than", "1h", "--json"},
    {"projections", "status", "--store", "{}", "--json"},
    {"outbox", "cancel", "--store", "{}", "--id", "0190f3a4-0000-7000-8000-000000000000"},
    {"demo", "--store", "{}", "--orders", "5"},
    {"demo", "--store", "{}", "--orders", "5", "--json"},
    {"chaos", "--store", "{}", "--kills", "1"},
    {"chaos", "--store", "{}", "--kills", "1", "--json"},
    {"soak", "--store", "{}", "--duration", "2s", "--sample-every", "1s"},
    {"soak", "--store", "{}", "--duration", "2s", "--sample-every", "1s", "--json"},
#if DOCKET_TOOL_HAS_BENCH
    {"bench", "inbox", "--store", "{}", "--messages", "10"},
    {"bench", "claim", "--store", "{}", "--messages", "10", "--json"},
    {"bench", "events", "--store", "{}", "--appends", "10", "--streams", "2", "--loads", "2"},
    {"bench", "outbox", "--store", "{}", "--messages", "10"},
    {"bench", "relay", "--store", "{}", "--transport", "amqp://127.0.0.1:1/v?exchange=x",
     "--messages", "10"},
#endif
};

// Every command that takes a transport URL; {} marks it.
std::vector<std::vector<std::string>> transport_commands(const std::string& store) {
  std::vector<std::vector<std::string>> commands = {
      {"demo", "--store", store, "--orders", "5", "--transport", "{}"},
      {"chaos", "--store", store, "--kills", "1", "--transport", "{}"},
      {"chaos", "--store", store, "--kills", "1", "--transport", "{}", "--allow-broker-restart"},
  };
#if DOCKET_TOOL_HAS_BENCH
  commands.push_back({"bench", "relay", "--store", store, "--transport", "{}", "--json"});
#endif
  return commands;
}

std::vector<std::string> filled(std::vector<std::string> command, const std::string& url) {
  for (std::string& argument : command) {
    if (argument == "{}") {
      argument = url;
    }
  }
  return command;
}

std::string joined(const std::vector<std::string>& command) {
  std::string out = "docket";
  for (const std::string& argument : command) {
    out += " " + argument;
  }
  return out;
}

void run_and_expect_no_secret(const std::vector<std::string>& command) {
  const ToolRun run = run_docket_within(command, kRunLimit);
  // Most end refused; `migrate scan` of a SQL store reads nothing and may end 0. Either
  // way nothing printed holds a secret.
  EXPECT_FALSE(run.timed_out) << joined(command);
  expect_no_secret(run, joined(command));
}

TEST(Credentials, NoStoreUrlCredentialIsPrintedByAnyCommand) {
  for (const std::string& base : kStoreBases) {
    for (const std::string& url : credential_urls(base)) {
      for (const auto& command : kStoreCommands) {
        run_and_expect_no_secret(filled(command, url));
      }
    }
  }
}

TEST(Credentials, NoTransportUrlCredentialIsPrintedByAnyCommand) {
  const std::string store = "sqlite://" + ::testing::TempDir() + "docket-credentials-transport.db";
  for (const std::string& base : kTransportBases) {
    for (const std::string& url : credential_urls(base)) {
      for (const auto& command : transport_commands(store)) {
        run_and_expect_no_secret(filled(command, url));
      }
    }
  }
}

// A malformed option beside a URL with credentials: the usage error names the option
// and prints no URL's secret (CLI11's own messages included).
TEST(Credentials, AUsageErrorBesideTheUrlPrintsNoSecret) {
  const std::string url = credential_urls("postgresql://127.0.0.1:1/docket").front();
  for (const std::vector<std::string>& command : std::vector<std::vector<std::string>>{
           {"chaos", "--store", url, "--kills", "ten"},
           {"chaos", "--store", url, "--kills", "0"},
           {"soak", "--store", url, "--duration", "5"},
           {"inbox", "cleanup", "--store", url, "--older-than", "0d", "--all-tenants"},
           {"events", "show", "--store", url, "--tenant", "acme"},
           {"migrate", "scan", "--store", url, "--examples", url},
           {"demo", "--store", url, "--nosuch", url}}) {
    const ToolRun run = run_docket_within(command, kRunLimit);
    EXPECT_EQ(run.exit_code, 2) << joined(command) << "\n" << describe(run);
    expect_no_secret(run, joined(command));
  }
}

#if DOCKET_HAVE_POSTGRES
// On the PostgreSQL test server, which trusts loopback: libpq takes a password as user
// info and as password= or sslpassword= (it refuses parameters it does not know), so
// these runs succeed, and name the store masked.
TEST(Credentials, SuccessfulRunsOnPostgresPrintNoSecret) {
  const test_support::PostgresSchema schema;
  std::string url = schema.url();
  url.insert(url.find('@'), ":" + kUserPassword.secret);
  url += std::string(url.find('?') == std::string::npos ? "?" : "&") +
         "password=" + parameter_forms()[0].secret + "&sslpassword=" + parameter_forms()[9].secret;
  for (const std::vector<std::string>& command : std::vector<std::vector<std::string>>{
           {"inbox", "stats", "--store", url, "--json"},
           {"events", "show", "--store", url, "--tenant", "acme", "--aggregate-type", "order",
            "--aggregate-id", "o-1", "--json"},
           {"sagas", "show", "--store", url, "--tenant", "acme", "--saga-type", "checkout",
            "--saga-id", "o-1"},
           {"migrate", "scan", "--store", url},
           {"demo", "--store", url, "--orders", "5", "--json"},
           {"chaos", "--store", url, "--kills", "1"},
           {"soak", "--store", url, "--duration", "2s", "--sample-every", "1s", "--json"}}) {
    const ToolRun run = run_docket_within(command, std::chrono::seconds(120));
    EXPECT_EQ(run.exit_code, 0) << joined(command) << "\n" << describe(run);
    expect_no_secret(run, joined(command));
    EXPECT_THAT(run.out, HasSubstr("***")) << joined(command);
  }
}
#endif

// Across the RabbitMQ test broker, whose URL carries its password: a demo that succeeds
// names the broker masked.
TEST(Credentials, ASuccessfulRunAcrossRabbitMqPrintsNoPassword) {
  const char* broker = std::getenv("DOCKET_TEST_RABBITMQ_URL");
  ASSERT_TRUE(broker != nullptr && *broker != '\0')
      << "DOCKET_TEST_RABBITMQ_URL is not set, and this test needs the real broker: "
         "export DOCKET_TEST_RABBITMQ_URL=$(scripts/rabbitmq-start.sh)";
  const std::string url = std::string(broker) + "?exchange=docket-credentials-test";
  const std::string password = std::string(broker).substr(
      std::string(broker).find(':', 7) + 1,
      std::string(broker).find('@') - std::string(broker).find(':', 7) - 1);
  const std::string store = "sqlite://" + ::testing::TempDir() + "docket-credentials-demo.db";
  const ToolRun run = run_docket_within(
      {"demo", "--store", store, "--orders", "5", "--transport", url}, std::chrono::seconds(120));
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_THAT(run.out + run.err, Not(HasSubstr(password))) << describe(run);
}

}  // namespace
}  // namespace docket::testing
