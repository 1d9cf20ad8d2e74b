// docket dashboard's JSON API and its refusals, against a real SQLite file store
// holding the fixture (dashboard_fixture.h), the tool run as a child process and spoken
// to over HTTP (dashboard_process.h); what an action changed is read back through the
// store. The browser test (dashboard_browser_test.mjs) drives the page itself.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "dashboard_fixture.h"
#include "dashboard_process.h"
#include "docket/stores/open_store.h"
#include "tool/tool_runner.h"

namespace docket::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr const char* kToken = "0123456789abcdef-test-token";

class DashboardTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::path(::testing::TempDir()) /
           ("dashboard-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    url_ = "sqlite://" + (dir_ / "store.db").string();
    fixture_ = write_dashboard_fixture(url_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  OutboxStatus status_of(const std::string& id) {
    const auto store = open_outbox_store(url_);
    const std::optional<OutboxRecord> record = store->find(id);
    EXPECT_TRUE(record.has_value()) << id;
    return record ? record->status : OutboxStatus::kDone;
  }

  std::filesystem::path dir_;
  std::string url_;
  DashboardFixture fixture_;
};

// Every read answers JSON with the counts the fixture wrote, as the commands print them.
TEST_F(DashboardTest, ApiShowsTheOutboxParkedFailedSagasAndProjections) {
  DashboardProcess dashboard({"--store", url_, "--listen", "127.0.0.1:0"});
  const HttpAnswer stats = http_request(dashboard.port(), "GET", "/api/outbox/stats");
  ASSERT_EQ(stats.status, 200) << stats.body;
  EXPECT_EQ(stats.header("content-type"), "application/json; charset=utf-8");
  const nlohmann::json s = stats.json();
  EXPECT_EQ(s["total"]["parked"], 3);
  EXPECT_EQ(s["total"]["done"], 1);
  EXPECT_EQ(s["total"]["due"], 1);
  EXPECT_EQ(s["destinations"]["nowhere"]["parked"], 3);
  EXPECT_EQ(s["store"], url_);
  EXPECT_TRUE(s["oldest_due_age_seconds"].is_number());

  const nlohmann::json parked = http_request(dashboard.port(), "GET", "/api/outbox/parked").json();
  ASSERT_EQ(parked["count"], 3);
  EXPECT_EQ(parked["messages"][0]["id"], fixture_.parked[0]);
  EXPECT_THAT(parked["messages"][0]["last_error"].get<std::string>(), HasSubstr("nowhere"));

  const nlohmann::json failed = http_request(dashboard.port(), "GET", "/api/inbox/failed").json();
  ASSERT_EQ(failed["count"], 2);
  std::vector<std::string> errors;
  for (const nlohmann::json& entry : failed["entries"]) {
    errors.push_back(entry["last_error"]);
  }
  EXPECT_THAT(errors,
              ::testing::UnorderedElementsAre(fixture_.failed[0].error, fixture_.failed[1].error));

  const nlohmann::json sagas = http_request(dashboard.port(), "GET", "/api/sagas").json();
  EXPECT_EQ(sagas["by_status"]["active"]["count"], 2);
  EXPECT_EQ(sagas["by_status"]["completed"]["count"], 1);
  EXPECT_EQ(sagas["active"].size(), 2U);

  const HttpAnswer projections = http_request(dashboard.port(), "GET", "/api/projections");
  ASSERT_EQ(projections.status, 200) << projections.body;
  const nlohmann::json p = projections.json();
  ASSERT_EQ(p["count"], 1) << projections.body;
  EXPECT_EQ(p["projections"][0]["consumer_id"], fixture_.projection_consumer);
  EXPECT_EQ(p["projections"][0]["lag_positions"], 3);
  EXPECT_EQ(p["projections"][0]["caught_up"], false);

  const HttpAnswer page = http_request(dashboard.port(), "GET", "/");
  EXPECT_EQ(page.status, 200);
  EXPECT_EQ(page.header("content-type"), "text/html; charset=utf-8");
  EXPECT_THAT(page.header("content-security-policy").value_or(""), HasSubstr("script-src 'self'"));
  EXPECT_EQ(http_request(dashboard.port(), "GET", "/dashboard.js").status, 200);
  EXPECT_EQ(http_request(dashboard.port(), "GET", "/nothing").status, 404);
  const auto [code, err] = dashboard.stop();
  EXPECT_EQ(code, 0) << err;
}

// Replay and skip act as `outbox replay --id` and `outbox skip` do; a message no longer
// parked gets 409 and an unknown id 404, each saying why, and neither changes anything.
TEST_F(DashboardTest, ReplaySkipAndRetryActOnTheStoreAndRefuseWhatTheyCannotDo) {
  DashboardProcess dashboard({"--store", url_, "--listen", "127.0.0.1:0"});
  const DashboardSession session = open_dashboard_session(dashboard.port());
  const HttpAnswer replayed =
      post_action(dashboard.port(), session, "/api/outbox/replay", {{"id", fixture_.parked[0]}});
  ASSERT_EQ(replayed.status, 200) << replayed.body;
  EXPECT_EQ(replayed.json()["replayed"], true);
  EXPECT_EQ(status_of(fixture_.parked[0]), OutboxStatus::kPending);

  const HttpAnswer again =
      post_action(dashboard.port(), session, "/api/outbox/replay", {{"id", fixture_.parked[0]}});
  EXPECT_EQ(again.status, 409);
  EXPECT_THAT(again.json()["error"].get<std::string>(), HasSubstr("it is pending"));
  EXPECT_THAT(again.json()["error"].get<std::string>(), HasSubstr("Nothing was changed"));
  EXPECT_EQ(status_of(fixture_.parked[0]), OutboxStatus::kPending);

  const HttpAnswer replay_done =
      post_action(dashboard.port(), session, "/api/outbox/replay", {{"id", fixture_.done}});
  EXPECT_EQ(replay_done.status, 409);
  EXPECT_THAT(replay_done.json()["error"].get<std::string>(), HasSubstr("nothing to replay"));
  const HttpAnswer done =
      post_action(dashboard.port(), session, "/api/outbox/skip", {{"id", fixture_.done}});
  EXPECT_EQ(done.status, 409);
  EXPECT_THAT(done.json()["error"].get<std::string>(), HasSubstr("it is done"));
  EXPECT_EQ(status_of(fixture_.done), OutboxStatus::kDone);

  const HttpAnswer unknown = post_action(dashboard.port(), session, "/api/outbox/replay",
                                         {{"id", "00000000-0000-4000-8000-000000000000"}});
  EXPECT_EQ(unknown.status, 404);
  EXPECT_THAT(unknown.json()["error"].get<std::string>(), HasSubstr("holds no message"));

  const HttpAnswer skipped =
      post_action(dashboard.port(), session, "/api/outbox/skip", {{"id", fixture_.parked[1]}});
  ASSERT_EQ(skipped.status, 200) << skipped.body;
  EXPECT_EQ(status_of(fixture_.parked[1]), OutboxStatus::kSkipped);
  EXPECT_EQ(status_of(fixture_.parked[2]), OutboxStatus::kParked);

  const DashboardFixture::FailedEntry& entry = fixture_.failed[0];
  const nlohmann::json key = {{"tenant", entry.tenant},
                              {"message_id", entry.message_id},
                              {"handler_type", entry.handler_type}};
  const auto claims = open_claim_inbox_store(url_);
  const ClaimKey claim_key(TenantId(entry.tenant), entry.message_id, entry.handler_type);
  ASSERT_GT(claims->find(claim_key)->next_attempt_at, SystemClock::instance().now());
  const HttpAnswer retried = post_action(dashboard.port(), session, "/api/inbox/retry", key);
  ASSERT_EQ(retried.status, 200) << retried.body;
  EXPECT_LE(claims->find(claim_key)->next_attempt_at, SystemClock::instance().now());

  nlohmann::json processed = key;
  processed["message_id"] = "mail-7";
  processed["handler_type"] = "Mailer";
  const HttpAnswer not_failed =
      post_action(dashboard.port(), session, "/api/inbox/retry", processed);
  EXPECT_EQ(not_failed.status, 409);
  EXPECT_THAT(not_failed.json()["error"].get<std::string>(), HasSubstr("it is processed"));
  processed["message_id"] = "nobody";
  EXPECT_EQ(post_action(dashboard.port(), session, "/api/inbox/retry", processed).status, 404);

  const HttpAnswer bad_body =
      post_action(dashboard.port(), session, "/api/outbox/replay", {{"ident", "x"}});
  EXPECT_EQ(bad_body.status, 400);
  EXPECT_THAT(bad_body.json()["error"].get<std::string>(), HasSubstr("id is missing"));
}

// A POST without its session's CSRF token, from another origin or not of JSON is
// refused before it reaches the store; a GET never acts.
TEST_F(DashboardTest, ActionsWithoutTheCsrfTokenAreRefusedAndChangeNothing) {
  DashboardProcess dashboard({"--store", url_, "--listen", "127.0.0.1:0"});
  const DashboardSession session = open_dashboard_session(dashboard.port());
  const std::string body = nlohmann::json{{"id", fixture_.parked[0]}}.dump();
  const int port = dashboard.port();
  EXPECT_EQ(
      http_request(port, "POST", "/api/outbox/replay", {{"Content-Type", "application/json"}}, body)
          .status,
      403);
  EXPECT_EQ(http_request(port, "POST", "/api/outbox/replay",
                         {{"Content-Type", "application/json"},
                          {"Cookie", session.cookie},
                          {"X-CSRF-Token", std::string(session.csrf_token.size(), '0')}},
                         body)
                .status,
            403);
  EXPECT_EQ(http_request(
                port, "POST", "/api/outbox/replay",
                {{"Content-Type", "application/json"}, {"X-CSRF-Token", session.csrf_token}}, body)
                .status,
            403)
      << "the token without its session's cookie";
  EXPECT_EQ(http_request(port, "POST", "/api/outbox/replay",
                         {{"Content-Type", "application/json"},
                          {"Cookie", session.cookie},
                          {"X-CSRF-Token", session.csrf_token},
                          {"Origin", "http://evil.example"}},
                         body)
                .status,
            403);
  EXPECT_EQ(http_request(port, "POST", "/api/outbox/replay",
                         {{"Content-Type", "application/x-www-form-urlencoded"},
                          {"Cookie", session.cookie},
                          {"X-CSRF-Token", session.csrf_token}},
                         "id=" + fixture_.parked[0])
                .status,
            415);
  const HttpAnswer get = http_request(port, "GET", "/api/outbox/replay?id=" + fixture_.parked[0]);
  EXPECT_EQ(get.status, 405);
  EXPECT_EQ(get.header("allow"), "POST");
  EXPECT_EQ(status_of(fixture_.parked[0]), OutboxStatus::kParked);
  // A request addressed to another name (a rebound DNS name) gets nothing.
  EXPECT_EQ(http_request(port, "GET", "/api/outbox/stats", {{"Host", "evil.example"}}).status, 421);
}

// With --token every request carries it (a cookie from /?token=, or a bearer header).
TEST_F(DashboardTest, TokenIsRequiredWhenGiven) {
  DashboardProcess dashboard({"--store", url_, "--listen", "127.0.0.1:0", "--token", kToken});
  const int port = dashboard.port();
  EXPECT_EQ(http_request(port, "GET", "/api/outbox/stats").status, 401);
  EXPECT_EQ(http_request(port, "GET", "/").status, 401);
  EXPECT_EQ(http_request(port, "GET", "/?token=wrong-token-0123456789").status, 401);
  EXPECT_EQ(http_request(port, "GET", "/api/outbox/stats",
                         {{"Authorization", std::string("Bearer ") + kToken}})
                .status,
            200);
  const HttpAnswer login = http_request(port, "GET", std::string("/?token=") + kToken);
  ASSERT_EQ(login.status, 303);
  EXPECT_EQ(login.header("location"), "/");
  const std::string cookie = login.header("set-cookie").value_or("");
  EXPECT_THAT(cookie, HasSubstr("HttpOnly"));
  EXPECT_THAT(cookie, HasSubstr("SameSite=Strict"));
  EXPECT_EQ(http_request(port, "GET", "/", {{"Cookie", cookie.substr(0, cookie.find(';'))}}).status,
            200);
  EXPECT_THAT(dashboard.serving_line(), Not(HasSubstr(kToken)));
}

// A store that cannot be reached: the dashboard starts, and each read answers 503 with
// the store's error, without the URL's password. A PostgreSQL server that is not there
// where the build has PostgreSQL; else a SQLite file under a directory that is not.
TEST_F(DashboardTest, StoreThatIsDownAnswers503WithoutItsSecrets) {
#if defined(DOCKET_DASHBOARD_HAS_POSTGRES)
  const std::string down = "postgresql://app:hunter2secret@127.0.0.1:1/orders?connect_timeout=2";
#else
  const std::string down = "sqlite://" + (dir_ / "hunter2secret" / "no" / "store.db").string();
#endif
  DashboardProcess dashboard({"--store", down, "--listen", "127.0.0.1:0"});
  for (const char* path : {"/api/outbox/stats", "/api/outbox/parked", "/api/inbox/failed",
                           "/api/sagas", "/api/projections"}) {
    const HttpAnswer answer = http_request(dashboard.port(), "GET", path);
    EXPECT_EQ(answer.status, 503) << path << ": " << answer.body;
    EXPECT_THAT(answer.json()["error"].get<std::string>(), HasSubstr("cannot be read")) << path;
#if defined(DOCKET_DASHBOARD_HAS_POSTGRES)
    EXPECT_THAT(answer.body, Not(HasSubstr("hunter2secret"))) << path;
#endif
  }
#if defined(DOCKET_DASHBOARD_HAS_POSTGRES)
  EXPECT_THAT(dashboard.serving_line(), Not(HasSubstr("hunter2secret")));
#endif
}

// Bad command lines: exit 2 for --listen and --token, 1 for a store it cannot use and
// for a port in use, naming the port.
TEST_F(DashboardTest, BadCommandLinesAreRefused) {
  const auto exit_of = [&](std::vector<std::string> args, const std::string& names) {
    args.insert(args.begin(), "dashboard");
    const ToolRun run = run_docket_within(args, std::chrono::seconds(60));
    EXPECT_THAT(run.err, HasSubstr(names)) << describe(run);
    return run.exit_code;
  };
  EXPECT_EQ(exit_of({"--store", url_, "--listen", "nope"}, "--listen"), 2);
  EXPECT_EQ(exit_of({"--store", url_, "--listen", "127.0.0.1:70000"}, "out of range"), 2);
  EXPECT_EQ(exit_of({"--store", url_, "--listen", "127.0.0.1:-1"}, "--listen"), 2);
  EXPECT_EQ(exit_of({"--store", url_, "--listen", "example.com:80"}, "numeric"), 2);
  EXPECT_EQ(exit_of({"--store", url_, "--listen", "0.0.0.0:0"}, "--token"), 2);
  EXPECT_EQ(exit_of({"--store", url_, "--listen", "0.0.0.0:0", "--token", "short"}, "--token"), 2);
  EXPECT_EQ(exit_of({"--store", url_, "--token", "has space in it 0123456789"}, "--token"), 2);
  EXPECT_EQ(exit_of({"--store", "memory:"}, "memory"), 1);
  EXPECT_EQ(exit_of({"--store", "nosuch://x"}, "nosuch"), 1);

  DashboardProcess first({"--store", url_, "--listen", "127.0.0.1:0"});
  const std::string port = std::to_string(first.port());
  EXPECT_EQ(exit_of({"--store", url_, "--listen", "127.0.0.1:" + port},
                    "127.0.0.1:" + port + ": port " + port + " is in use"),
            1);
}

}  // namespace
}  // namespace docket::testing
