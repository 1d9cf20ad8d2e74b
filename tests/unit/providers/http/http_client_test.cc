// HttpClient over real sockets: a loopback server of the test's own, a closed port, and
// a server that never answers.
#include "providers/kit/http/http_client.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <barrier>
#include <chrono>
#include <thread>
#include <variant>
#include <vector>

#include "docket/core/error.h"
#include "support/loopback_http_server.h"

namespace docket::kit::http {
namespace http_client_test {

using test_support::LoopbackHttpServer;
using ::testing::HasSubstr;
using namespace std::chrono_literals;

HttpRequest post(const std::string& url, std::string body) {
  return {.method = "POST",
          .url = url,
          .headers = {{"Content-Type", "application/json"}, {"X-Amz-Target", "Test.Op"}},
          .body = std::move(body)};
}

TEST(HttpClient, SendsMethodHeadersAndBodyAndReadsTheResponse) {
  LoopbackHttpServer server;
  const HttpClient client("test client");
  const HttpResult result = client.send(post(server.url(), "{\"n\":1}"));

  ASSERT_TRUE(std::holds_alternative<HttpResponse>(result))
      << std::get<TransportFailure>(result).detail;
  const auto& response = std::get<HttpResponse>(result);
  EXPECT_EQ(response.status, 200);
  EXPECT_EQ(response.header("content-type"), "application/x-amz-json-1.0");
  EXPECT_EQ(response.header("x-test-header"), "padded");
  ASSERT_EQ(server.requests().size(), 1u);
  const std::string request = server.requests().front();
  EXPECT_TRUE(request.starts_with("POST / HTTP/1.1\r\n")) << request;
  EXPECT_THAT(request, HasSubstr("\r\nX-Amz-Target: Test.Op\r\n"));
  EXPECT_THAT(request, HasSubstr("\r\nContent-Length: 7\r\n"));
  EXPECT_THAT(request, ::testing::Not(HasSubstr("Expect:")));
  EXPECT_TRUE(request.ends_with("\r\n\r\n{\"n\":1}")) << request;
  EXPECT_THAT(response.body, HasSubstr("X-Amz-Target: Test.Op"));
}

TEST(HttpClient, ALargeBodyGoesWithoutWaitingForContinue) {
  LoopbackHttpServer server;
  const HttpClient client("test client");
  const std::string body(300'000, 'x');
  const HttpResult result = client.send(post(server.url(), body));
  ASSERT_TRUE(std::holds_alternative<HttpResponse>(result));
  ASSERT_EQ(server.requests().size(), 1u);
  EXPECT_TRUE(server.requests().front().ends_with(body));
}

TEST(HttpClient, ReusesOneConnectionForSequentialRequests) {
  LoopbackHttpServer server;
  const HttpClient client("test client");
  for (int i = 0; i < 5; ++i) {
    ASSERT_TRUE(std::holds_alternative<HttpResponse>(client.send(post(server.url(), "{}"))));
  }
  EXPECT_EQ(server.requests().size(), 5u);
  EXPECT_EQ(server.connections_accepted(), 1);
}

// Each request sent is counted where the options say: docket's counter by default, a
// counter of the caller's own, or nowhere.
TEST(HttpClient, CountsEachRequestWhereItsOptionsSay) {
  LoopbackHttpServer server;
  std::atomic<std::uint64_t> own{0};
  const HttpClient counted("test client", {.request_count = &own});
  const HttpClient uncounted("test client", {.request_count = nullptr});
  const std::uint64_t docket_before = docket_requests().load();
  for (int i = 0; i < 3; ++i) {
    counted.send(post(server.url(), "{}"));
    uncounted.send(post(server.url(), "{}"));
  }
  EXPECT_EQ(own.load(), 3u);
  EXPECT_EQ(docket_requests().load(), docket_before);
  const HttpClient by_default("test client");
  by_default.send(post(server.url(), "{}"));
  EXPECT_EQ(docket_requests().load(), docket_before + 1);
  EXPECT_EQ(server.requests().size(), 7u);
}

TEST(HttpClient, WithoutIdleConnectionsEachRequestConnectsAnew) {
  LoopbackHttpServer server;
  const HttpClient client("test client", {.max_idle_connections = 0});
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(std::holds_alternative<HttpResponse>(client.send(post(server.url(), "{}"))));
  }
  EXPECT_EQ(server.connections_accepted(), 3);
}

TEST(HttpClient, ServesThreadsAtOnceAndKeepsTheirConnections) {
  LoopbackHttpServer server;
  const HttpClient client("test client");
  constexpr int kThreads = 4;
  std::barrier start(kThreads);
  std::vector<int> ok(kThreads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      start.arrive_and_wait();
      for (int i = 0; i < 10; ++i) {
        ok[t] += std::holds_alternative<HttpResponse>(client.send(post(server.url(), "{}")));
      }
    });
  }
  for (std::thread& thread : threads) {
    thread.join();
  }
  EXPECT_EQ(ok, std::vector<int>(kThreads, 10));
  EXPECT_EQ(server.requests().size(), 40u);
  EXPECT_LE(server.connections_accepted(), kThreads);
}

TEST(HttpClient, AClosedPortIsAConnectFailureBeforeAnythingWasSent) {
  const HttpClient client("test client");
  const auto start = std::chrono::steady_clock::now();
  const HttpResult result = client.send(
      post("http://127.0.0.1:" + std::to_string(test_support::closed_loopback_port()) + "/", "{}"));
  EXPECT_LT(std::chrono::steady_clock::now() - start, 2s);
  ASSERT_TRUE(std::holds_alternative<TransportFailure>(result));
  const auto& failure = std::get<TransportFailure>(result);
  EXPECT_EQ(failure.kind, TransportFailure::Kind::kConnect);
  EXPECT_TRUE(failure.request_unsent);
  EXPECT_THAT(failure.detail, HasSubstr("127.0.0.1"));
}

TEST(HttpClient, AServerThatNeverAnswersTimesOutAfterTheRequestWasSent) {
  LoopbackHttpServer server(LoopbackHttpServer::Mode::kSilent);
  const HttpClient client("test client", {.connect_timeout = 200ms, .total_timeout = 400ms});
  const auto start = std::chrono::steady_clock::now();
  const HttpResult result = client.send(post(server.url(), "{}"));
  const auto took = std::chrono::steady_clock::now() - start;
  EXPECT_GE(took, 390ms);
  EXPECT_LT(took, 3s);
  ASSERT_TRUE(std::holds_alternative<TransportFailure>(result));
  const auto& failure = std::get<TransportFailure>(result);
  EXPECT_EQ(failure.kind, TransportFailure::Kind::kTimeout);
  EXPECT_FALSE(failure.request_unsent);
  EXPECT_EQ(server.requests().size(), 1u);
}

TEST(HttpClient, RefusesTimeoutsThatCannotWork) {
  EXPECT_THROW(HttpClient("c", {.connect_timeout = 0ms}), ConfigurationError);
  EXPECT_THROW(HttpClient("c", {.connect_timeout = 500ms, .total_timeout = 100ms}),
               ConfigurationError);
  EXPECT_THAT([] { HttpClient("DynamoDB client", {.total_timeout = 100ms}); },
              ::testing::ThrowsMessage<ConfigurationError>(
                  ::testing::AllOf(HasSubstr("DynamoDB client"), HasSubstr("total_timeout"))));
}

}  // namespace http_client_test
}  // namespace docket::kit::http
