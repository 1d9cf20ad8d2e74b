#include "support/loopback_http_server.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>

namespace docket::test_support {
namespace {

int bound_listener(int backlog) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = 0;
  if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
      (backlog > 0 && ::listen(fd, backlog) != 0)) {
    throw std::runtime_error("loopback test server: cannot bind 127.0.0.1");
  }
  return fd;
}

int port_of(int fd) {
  sockaddr_in address{};
  socklen_t size = sizeof address;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &size);
  return ntohs(address.sin_port);
}

// The length of the first complete request in `buffer`, or 0 while it is incomplete.
std::size_t complete_request(std::string_view buffer) {
  const std::size_t head_end = buffer.find("\r\n\r\n");
  if (head_end == std::string_view::npos) {
    return 0;
  }
  std::size_t body = 0;
  const std::string_view head = buffer.substr(0, head_end);
  for (const std::string_view name : {"Content-Length:", "content-length:"}) {
    if (const std::size_t at = head.find(name); at != std::string_view::npos) {
      body = std::strtoul(std::string(head.substr(at + name.size())).c_str(), nullptr, 10);
    }
  }
  const std::size_t total = head_end + 4 + body;
  return buffer.size() >= total ? total : 0;
}

std::string response_text(int status, const std::string& body) {
  return "HTTP/1.1 " + std::to_string(status) +
         " Canned\r\nContent-Type: application/x-amz-json-1.0\r\nX-Test-Header:  padded  \r\n"
         "x-amzn-RequestId: TEST-REQUEST-ID\r\nContent-Length: " +
         std::to_string(body.size()) + "\r\n\r\n" + body;
}

std::string echo_response(std::string_view request) {
  std::string escaped;
  for (const char c : request) {
    if (c == '"' || c == '\\') {
      escaped.push_back('\\');
      escaped.push_back(c);
    } else if (c == '\r') {
      escaped += "\\r";
    } else if (c == '\n') {
      escaped += "\\n";
    } else {
      escaped.push_back(c);
    }
  }
  return response_text(200, "{\"received\":\"" + escaped + "\"}");
}

}  // namespace

LoopbackHttpServer::LoopbackHttpServer(Mode mode, Answer canned, Responder responder)
    : mode_(mode), canned_(std::move(canned)), responder_(std::move(responder)) {
  listener_ = bound_listener(16);
  port_ = port_of(listener_);
  if (::pipe2(stop_, O_CLOEXEC) != 0) {
    throw std::runtime_error("loopback test server: pipe failed");
  }
  thread_ = std::thread([this] { serve(); });
}

LoopbackHttpServer::~LoopbackHttpServer() {
  (void)::write(stop_[1], "x", 1);
  thread_.join();
  ::close(listener_);
  ::close(stop_[0]);
  ::close(stop_[1]);
}

std::vector<std::string> LoopbackHttpServer::requests() const {
  const std::lock_guard lock(mutex_);
  return requests_;
}

std::size_t LoopbackHttpServer::request_count() const {
  const std::lock_guard lock(mutex_);
  return requests_.size();
}

void LoopbackHttpServer::serve() {
  struct Client {
    int fd;
    std::string buffer;
  };
  std::vector<Client> clients;
  while (true) {
    std::vector<pollfd> fds{{stop_[0], POLLIN, 0}, {listener_, POLLIN, 0}};
    for (const Client& client : clients) {
      fds.push_back({client.fd, POLLIN, 0});
    }
    if (::poll(fds.data(), fds.size(), -1) < 0 || fds[0].revents != 0) {
      break;
    }
    if (fds[1].revents & POLLIN) {
      const int fd = ::accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC);
      if (fd >= 0) {
        clients.push_back({fd, {}});
        accepted_.fetch_add(1);
      }
    }
    for (std::size_t i = 2; i < fds.size(); ++i) {
      if (fds[i].revents == 0) {
        continue;
      }
      Client& client = clients[i - 2];
      char chunk[4096];
      const ssize_t n = ::read(client.fd, chunk, sizeof chunk);
      if (n <= 0) {
        ::close(client.fd);
        client.fd = -1;
        continue;
      }
      client.buffer.append(chunk, static_cast<std::size_t>(n));
      while (const std::size_t size = complete_request(client.buffer)) {
        const std::string request = client.buffer.substr(0, size);
        client.buffer.erase(0, size);
        {
          const std::lock_guard lock(mutex_);
          requests_.push_back(request);
        }
        if (mode_ != Mode::kSilent) {
          std::string response;
          if (mode_ == Mode::kEcho) {
            response = echo_response(request);
          } else if (mode_ == Mode::kResponder) {
            const Answer answer = responder_(request);
            response = response_text(answer.status, answer.body);
          } else {
            response = response_text(canned_.status, canned_.body);
          }
          (void)::write(client.fd, response.data(), response.size());
        }
      }
    }
    std::erase_if(clients, [](const Client& client) { return client.fd < 0; });
  }
  for (const Client& client : clients) {
    ::close(client.fd);
  }
}

int free_loopback_port_run(int count) {
  const auto bindable = [](int port) {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = htons(static_cast<std::uint16_t>(port));
    const bool bound =
        fd >= 0 && ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
    if (fd >= 0)
      ::close(fd);
    return bound;
  };
  // Starting points spread by the process id, so that parallel tests try apart.
  constexpr int kFirst = 20000;
  constexpr int kLast = 32000;
  const int span = kLast - kFirst - count;
  for (int attempt = 0; attempt < span; attempt += count) {
    const int first = kFirst + (static_cast<int>(::getpid()) * 7 + attempt) % span;
    if (first + count > 28000 && first < 29000)
      continue;
    bool all = true;
    for (int i = 0; i < count && all; ++i)
      all = bindable(first + i);
    if (all)
      return first;
  }
  throw std::runtime_error("loopback test ports: no run of " + std::to_string(count) +
                           " free ports between 20000 and 32000");
}

int closed_loopback_port() {
  const int fd = bound_listener(0);
  const int port = port_of(fd);
  ::close(fd);
  return port;
}

}  // namespace docket::test_support
