// A loopback proxy for the DynamoDB tests that must see what went on the wire: it
// forwards every request to the real server (DynamoDB Local) as sent, signature
// included, answers with the server's answer, and records the operation each request
// names (its X-Amz-Target). It can also lose the answer of the next PutItem (applied by
// the server, answered to the client with a 500), as a network does.
//
// It serves one connection at a time (test_support::LoopbackHttpServer): stores used
// from many threads at once talk to the server directly.
//
// Thread-safety: take() and lose_next_put_answer() may be called from any thread.
#ifndef DOCKET_PROVIDERS_DYNAMODB_TESTS_DYNAMODB_RECORDING_PROXY_H_
#define DOCKET_PROVIDERS_DYNAMODB_TESTS_DYNAMODB_RECORDING_PROXY_H_

#include <atomic>
#include <cctype>
#include <cstddef>
#include <mutex>
#include <regex>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "providers/dynamodb/dynamodb_url.h"
#include "providers/kit/http/http_client.h"
#include "support/loopback_http_server.h"

namespace docket::dynamodb::detail {

using RecordedOperations = std::vector<std::string>;

// Forwards each request to `target` (DynamoDB Local) unchanged, signature included,
// and answers with what it answered; records the operation of each.
class RecordingProxy {
 public:
  explicit RecordingProxy(const StoreUrl& target)
      : target_(target.endpoint),
        server_(test_support::LoopbackHttpServer::responding(
            [this](const std::string& request) { return forward(request); })) {}

  // The store URL `url` with its server replaced by this proxy.
  std::string url_of(const std::string& url) const {
    static const std::regex server("^dynamodb://[^/?]+");
    return std::regex_replace(url, server, "dynamodb://127.0.0.1:" + std::to_string(server_.port()),
                              std::regex_constants::format_first_only);
  }

  // The next PutItem is forwarded and applied, but its client is answered with a 500,
  // as when DynamoDB applies a request and the answer is lost.
  void lose_next_put_answer() { lose_put_answer_ = true; }

  // The operations forwarded since the last call.
  RecordedOperations take() {
    const std::lock_guard lock(mutex_);
    return std::exchange(operations_, {});
  }

 private:
  test_support::LoopbackHttpServer::Answer forward(const std::string& request) {
    const std::size_t head_end = request.find("\r\n\r\n");
    kit::http::HttpRequest out{.method = "POST", .url = target_, .headers = {}, .body = {}};
    out.body = request.substr(head_end + 4);
    std::string operation;
    std::size_t line = request.find("\r\n") + 2;  // past the request line
    while (line < head_end) {
      const std::size_t next = request.find("\r\n", line);
      const std::string header = request.substr(line, next - line);
      const std::size_t colon = header.find(':');
      std::string name = header.substr(0, colon);
      std::string value = header.substr(header.find_first_not_of(' ', colon + 1));
      for (char& c : name) {
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      }
      if (name == "x-amz-target") {
        const std::lock_guard lock(mutex_);
        operation = value.substr(value.find('.') + 1);
        operations_.push_back(operation);
      }
      if (name != "host" && name != "content-length") {
        out.headers.push_back({std::move(name), std::move(value)});
      }
      line = next + 2;
    }
    const kit::http::HttpResult result = http_.send(out);
    if (operation == "PutItem" && lose_put_answer_.exchange(false)) {
      return {500, R"({"__type":"InternalServerError","message":"the test's proxy lost it"})"};
    }
    if (const auto* response = std::get_if<kit::http::HttpResponse>(&result)) {
      return {static_cast<int>(response->status), response->body};
    }
    return {503, R"({"__type":"ServiceUnavailable","message":"the test's proxy failed"})"};
  }

  std::string target_;
  kit::http::HttpClient http_{"the test's proxy", {.request_count = nullptr}};
  std::atomic<bool> lose_put_answer_ = false;
  std::mutex mutex_;
  RecordedOperations operations_;
  test_support::LoopbackHttpServer server_;  // last: stopped before what it uses
};

}  // namespace docket::dynamodb::detail

#endif  // DOCKET_PROVIDERS_DYNAMODB_TESTS_DYNAMODB_RECORDING_PROXY_H_
