// A real HTTP/1.1 server on 127.0.0.1 and an ephemeral port, run by a thread of the
// test, for the HTTP clients of the document providers: it answers every request with
// 200 and a JSON body echoing what it received, or with one canned answer (a server
// error, a throttling error), or the answer a function of the test gives each request
// (an operation's own error), or, silent, reads requests and never answers. It keeps
// connections alive and counts the connections and requests it received.
//
// Thread-safety: the accessors may be called from any thread while it runs.
#ifndef DOCKET_TESTS_SUPPORT_LOOPBACK_HTTP_SERVER_H_
#define DOCKET_TESTS_SUPPORT_LOOPBACK_HTTP_SERVER_H_

#include <atomic>
#include <cstddef>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace docket::test_support {

class LoopbackHttpServer {
 public:
  enum class Mode { kEcho, kCanned, kResponder, kSilent };
  struct Answer {
    int status = 200;
    std::string body;
  };
  // Called on the server's thread with each request, head and body as sent.
  using Responder = std::function<Answer(const std::string& request)>;

  explicit LoopbackHttpServer(Mode mode = Mode::kEcho)
      : LoopbackHttpServer(mode, Answer{200, {}}) {}
  LoopbackHttpServer(Mode mode, Answer canned, Responder responder = {});
  // A server giving `canned` to every request.
  static LoopbackHttpServer answering(int status, std::string body) {
    return LoopbackHttpServer(Mode::kCanned, {status, std::move(body)});
  }
  // A server giving each request what `responder` answers for it.
  static LoopbackHttpServer responding(Responder responder) {
    return LoopbackHttpServer(Mode::kResponder, Answer{}, std::move(responder));
  }
  ~LoopbackHttpServer();
  LoopbackHttpServer(const LoopbackHttpServer&) = delete;
  LoopbackHttpServer& operator=(const LoopbackHttpServer&) = delete;

  int port() const noexcept { return port_; }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/"; }
  int connections_accepted() const noexcept { return accepted_.load(); }
  // Each request received, head and body as sent.
  std::vector<std::string> requests() const;
  std::size_t request_count() const;

 private:
  void serve();

  Mode mode_;
  Answer canned_;
  Responder responder_;
  int listener_ = -1;
  int stop_[2] = {-1, -1};  // a pipe: writing to it ends serve()
  int port_ = 0;
  std::atomic<int> accepted_{0};
  mutable std::mutex mutex_;
  std::vector<std::string> requests_;
  std::thread thread_;
};

// A loopback port nothing listens on: bound, then closed again.
int closed_loopback_port();

// The first of `count` consecutive loopback ports that could each be bound just now,
// below Linux's ephemeral range (32768 and up) and beside the test servers' (28000 to
// 28999 are skipped), so that no outgoing connection takes one of them before a server
// started on them binds it (a RabbitMQ broker takes its AMQP port and the next two).
int free_loopback_port_run(int count);

}  // namespace docket::test_support

#endif  // DOCKET_TESTS_SUPPORT_LOOPBACK_HTTP_SERVER_H_
