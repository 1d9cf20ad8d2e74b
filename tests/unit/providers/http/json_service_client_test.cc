// JsonServiceClient, the call loop DynamoDB's and Firestore's clients share, against a
// loopback HTTP server of the test's own: what it sends, which answers it repeats (as
// the service's ErrorEffect and the call's Replay say), what it gives back and what it
// throws. No service is named here: the loop knows none.
#include "providers/kit/http/json_service_client.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <string>

#include "docket/core/error.h"
#include "support/loopback_http_server.h"

namespace docket::kit::http {
namespace json_service_client_test {

using namespace std::chrono_literals;
using test_support::LoopbackHttpServer;
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::ThrowsMessage;

constexpr int kAttempts = 3;

JsonServiceClient client_of(const std::string& endpoint) {
  return JsonServiceClient(
      {.service = "Test", .endpoint = endpoint, .connect_advice = "Start the test server."},
      {.http = {.connect_timeout = 300ms, .total_timeout = 300ms},
       .retry = {.max_attempts = kAttempts, .base = 1ms, .cap = 2ms}});
}

// A call that posts to `endpoint` and reads every error answer as `effect`.
JsonCall call_to(const std::string& endpoint, Replay replay, ErrorEffect effect) {
  return {.what = "Test Op on thing 'x'",
          .replay = replay,
          .request =
              [endpoint](const std::string& body) {
                return HttpRequest{.method = "POST",
                                   .url = endpoint,
                                   .headers = {{"Content-Type", "application/json"}},
                                   .body = body};
              },
          .effect = [effect](const HttpResponse&) { return effect; }};
}

TEST(JsonServiceClient, ReturnsTheParsedAnswerOfA200AfterOneAttempt) {
  LoopbackHttpServer server;  // answers 200 with JSON describing the request
  const JsonServiceClient client = client_of(server.url());
  std::atomic<int> made{0};
  JsonCall call = call_to(server.url(), Replay::kUnsafe, ErrorEffect::kFinal);
  call.request = [&, inner = call.request](const std::string& body) {
    ++made;
    return inner(body);
  };
  JsonAnswer answer = client.call(call, R"({"n":1})");
  ASSERT_TRUE(answer.ok());
  EXPECT_TRUE(answer.json().is_object());
  EXPECT_EQ(answer.attempts(), 1);
  EXPECT_EQ(made.load(), 1);
  ASSERT_EQ(server.requests().size(), 1u);
  EXPECT_TRUE(server.requests().front().ends_with("\r\n\r\n{\"n\":1}"));
}

TEST(JsonServiceClient, AnErrorOfFinalEffectIsGivenBackAtOnce) {
  auto server = LoopbackHttpServer::answering(400, R"({"error":"bad"})");
  const JsonServiceClient client = client_of(server.url());
  const JsonAnswer answer =
      client.call(call_to(server.url(), Replay::kSafe, ErrorEffect::kFinal), "{}");
  ASSERT_FALSE(answer.ok());
  EXPECT_EQ(answer.error().status, 400);
  EXPECT_EQ(answer.error().body, R"({"error":"bad"})");
  EXPECT_EQ(answer.attempts(), 1);
  EXPECT_EQ(server.request_count(), 1u);
}

// Refused before anything was applied: sent again whatever the call's replay promise,
// and each attempt's request is made anew.
TEST(JsonServiceClient, AnErrorThatAppliedNothingIsRepeatedEvenForAnUnsafeCall) {
  auto server = LoopbackHttpServer::answering(400, R"({"error":"throttled"})");
  const JsonServiceClient client = client_of(server.url());
  std::atomic<int> made{0};
  JsonCall call = call_to(server.url(), Replay::kUnsafe, ErrorEffect::kNotApplied);
  call.request = [&, inner = call.request](const std::string& body) {
    ++made;
    return inner(body);
  };
  const JsonAnswer answer = client.call(call, "{}");
  ASSERT_FALSE(answer.ok());
  EXPECT_EQ(answer.attempts(), kAttempts);
  EXPECT_EQ(made.load(), kAttempts);
  EXPECT_EQ(server.request_count(), static_cast<std::size_t>(kAttempts));
}

TEST(JsonServiceClient, AnErrorThatMayHaveAppliedIsRepeatedOnlyForASafeCall) {
  auto server = LoopbackHttpServer::answering(500, "{}");
  const JsonServiceClient client = client_of(server.url());
  const JsonAnswer unsafe =
      client.call(call_to(server.url(), Replay::kUnsafe, ErrorEffect::kMaybeApplied), "{}");
  EXPECT_EQ(unsafe.attempts(), 1);
  EXPECT_EQ(server.request_count(), 1u);
  const JsonAnswer safe =
      client.call(call_to(server.url(), Replay::kSafe, ErrorEffect::kMaybeApplied), "{}");
  EXPECT_EQ(safe.attempts(), kAttempts);
  EXPECT_EQ(server.request_count(), 1u + kAttempts);
  EXPECT_EQ(safe.error().status, 500);
}

TEST(JsonServiceClient, A200ThatIsNotJsonIsRefusedNamingTheCallAndTheService) {
  auto server = LoopbackHttpServer::answering(200, "<html>a proxy</html>");
  const JsonServiceClient client = client_of(server.url());
  EXPECT_THAT([&] { client.call(call_to(server.url(), Replay::kSafe, ErrorEffect::kFinal), "{}"); },
              ThrowsMessage<InfrastructureError>(AllOf(
                  HasSubstr("Test Op on thing 'x' answered HTTP 200 with a body that is not JSON "
                            "(<html>a proxy</html>)"),
                  HasSubstr("is the store URL's endpoint a Test server?"))));
  EXPECT_EQ(server.request_count(), 1u);
}

TEST(JsonServiceClient, AConnectionNeverMadeIsRepeatedAndThrownWithTheConnectAdvice) {
  const std::string endpoint =
      "http://127.0.0.1:" + std::to_string(test_support::closed_loopback_port()) + "/";
  const JsonServiceClient client = client_of(endpoint);
  EXPECT_THAT([&] { client.call(call_to(endpoint, Replay::kUnsafe, ErrorEffect::kFinal), "{}"); },
              ThrowsMessage<InfrastructureError>(AllOf(
                  HasSubstr("Test Op on thing 'x' failed after 3 attempts: could not connect to " +
                            endpoint),
                  HasSubstr("Start the test server."), Not(HasSubstr("may or may not")))));
}

TEST(JsonServiceClient, NoAnswerInTimeIsRepeatedOnlyForASafeCall) {
  LoopbackHttpServer server(LoopbackHttpServer::Mode::kSilent);
  const JsonServiceClient client = client_of(server.url());
  EXPECT_THAT(
      [&] { client.call(call_to(server.url(), Replay::kUnsafe, ErrorEffect::kFinal), "{}"); },
      ThrowsMessage<InfrastructureError>(AllOf(HasSubstr("failed after 1 attempt: "),
                                               HasSubstr("may or may not have been applied"))));
  EXPECT_EQ(server.request_count(), 1u);
  EXPECT_THROW(client.call(call_to(server.url(), Replay::kSafe, ErrorEffect::kFinal), "{}"),
               InfrastructureError);
  EXPECT_EQ(server.request_count(), 1u + kAttempts);
}

TEST(JsonServiceClient, UnusableOptionsAreRefusedNamingTheServicesClient) {
  EXPECT_THAT(
      [] {
        JsonServiceClient({.service = "Test", .endpoint = {}, .connect_advice = {}},
                          {.retry = {.max_attempts = 0}});
      },
      ThrowsMessage<ConfigurationError>(
          AllOf(HasSubstr("Test client"), HasSubstr("max_attempts"))));
}

}  // namespace json_service_client_test
}  // namespace docket::kit::http
