// The Redis Streams transport under the transport conformance suite, in two cases:
//  - "redis": the shared server at DOCKET_TEST_REDIS_URL (scripts/), each test with a
//    stream_prefix of its own, whose keys it deletes afterwards;
//  - "redis_own_server": a redis-server this fixture starts for the test, on a free
//    loopback port with its own directory, appendonly yes and appendfsync always (so
//    that streams, groups and pending lists survive a restart as they would in
//    production), stopped by its PID; restart_broker() SIGTERMs it and starts it again
//    on the same port and directory (restarts_broker). The shared server is never
//    restarted: other engineers' tests use it.
// A group reads its stream from the start, so fresh_destination() only creates the
// stream (the group "conformance"); a destination no group subscribed to has no stream,
// and publishes there are unroutable. max_message_bytes is 4 KiB, so that the
// oversized message is refused before it is sent.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "docket/redis/transport.h"
#include "providers/redis/redis_connection.h"
#include "support/unique_name.h"
#include "transport_fixture.h"

extern char** environ;

namespace docket::conformance {
namespace redis_fixture {
namespace {

constexpr std::size_t kRedisMaxMessageBytes = 4096;
constexpr std::chrono::seconds kServerStarts{20};

std::string shared_server_url() {
  const char* url = std::getenv("DOCKET_TEST_REDIS_URL");
  if (url == nullptr || *url == '\0') {
    throw std::runtime_error(
        "DOCKET_TEST_REDIS_URL is not set, and the redis transport conformance cases need a "
        "real Redis server (7.0). Start the throwaway one and export its URL (scripts/)");
  }
  return url;
}

int free_loopback_port() {
  const int socket_fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  if (socket_fd < 0 || ::bind(socket_fd, reinterpret_cast<sockaddr*>(&address), length) != 0 ||
      ::getsockname(socket_fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    throw std::runtime_error("cannot find a free loopback port for a redis-server");
  }
  ::close(socket_fd);
  return ntohs(address.sin_port);
}

// A redis-server of the fixture's own, stopped (SIGTERM, waited for) and its directory
// removed by the destructor.
class OwnRedisServer {
 public:
  OwnRedisServer()
      : port_(free_loopback_port()),
        directory_(std::filesystem::temp_directory_path() /
                   ("docket-streams-redis-" + test_support::unique_suffix())) {
    std::filesystem::create_directories(directory_);
    start();
  }
  ~OwnRedisServer() {
    stop();
    std::error_code ignored;
    std::filesystem::remove_all(directory_, ignored);
  }
  OwnRedisServer(const OwnRedisServer&) = delete;
  OwnRedisServer& operator=(const OwnRedisServer&) = delete;

  std::string url() const { return "redis://127.0.0.1:" + std::to_string(port_) + "/0"; }

  void restart() {
    stop();
    start();
  }

 private:
  void start() {
    std::vector<std::string> args = {"redis-server",
                                     "--port",
                                     std::to_string(port_),
                                     "--bind",
                                     "127.0.0.1",
                                     "--dir",
                                     directory_.string(),
                                     "--appendonly",
                                     "yes",
                                     "--appendfsync",
                                     "always",
                                     "--save",
                                     "",
                                     "--logfile",
                                     (directory_ / "redis.log").string()};
    std::vector<char*> argv;
    for (std::string& arg : args)
      argv.push_back(arg.data());
    argv.push_back(nullptr);
    if (posix_spawnp(&pid_, "redis-server", nullptr, nullptr, argv.data(), environ) != 0)
      throw std::runtime_error("cannot start redis-server (Debian's redis-server package)");
    const auto url = redis::detail::parse_url(this->url());
    const auto deadline = std::chrono::steady_clock::now() + kServerStarts;
    for (;;) {
      try {
        redis::detail::Connection probe(url);
        if (!probe.run({"PING"}).is_error())
          return;
      } catch (const std::exception& error) {
        if (std::chrono::steady_clock::now() > deadline) {
          throw std::runtime_error("redis-server on port " + std::to_string(port_) +
                                   " did not answer within 20 s: " + error.what());
        }
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));  // polling its start
    }
  }

  void stop() {
    if (pid_ <= 0)
      return;
    ::kill(pid_, SIGTERM);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
  }

  int port_;
  std::filesystem::path directory_;
  pid_t pid_ = -1;
};

class RedisFixture final : public TransportFixture {
 public:
  explicit RedisFixture(bool own_server)
      : server_(own_server ? std::make_unique<OwnRedisServer>() : nullptr),
        base_url_(server_ ? server_->url() : shared_server_url()),
        prefix_("conf-" + test_support::unique_suffix() + ":"),
        transport_(base_url_ + (base_url_.find('?') == std::string::npos ? "?" : "&") +
                   "stream_prefix=" + prefix_ +
                   "&max_message_bytes=" + std::to_string(kRedisMaxMessageBytes)) {}

  ~RedisFixture() override {
    if (server_)
      return;  // its directory goes with it
    try {
      redis::detail::Connection admin(redis::detail::parse_url(base_url_));
      std::string cursor = "0";
      do {
        const auto reply = admin.run({"SCAN", cursor, "MATCH", prefix_ + "*", "COUNT", "1000"});
        cursor = reply.string_at(0).value_or("0");
        for (const std::string& key : reply.strings_at(1))
          admin.run({"DEL", key}).ok();
      } while (cursor != "0");
    } catch (const std::exception& error) {
      ADD_FAILURE() << "deleting the test's Redis streams: " << error.what();
    }
  }

  Transport& transport() override { return transport_; }
  std::string fresh_destination() override {
    std::string destination = "dest-" + std::to_string(++next_);
    transport_.declare_group(destination, "conformance");
    return destination;
  }
  std::string unroutable_destination() override { return "unbound-" + std::to_string(++next_); }
  std::size_t oversized_payload_bytes() override { return kRedisMaxMessageBytes + 1; }

  void restart_broker() override {
    if (!server_)
      throw std::logic_error("the shared Redis server is never restarted");
    server_->restart();
  }

 private:
  std::unique_ptr<OwnRedisServer> server_;
  std::string base_url_;
  std::string prefix_;
  redis::StreamsTransport transport_;
  int next_ = 0;
};

const TransportFixtureRegistrar kRedis{
    {.name = "redis", .make = [] { return std::make_unique<RedisFixture>(false); }}};
const TransportFixtureRegistrar kRedisOwnServer{
    {.name = "redis_own_server",
     .make = [] { return std::make_unique<RedisFixture>(true); },
     .restarts_broker = true}};

}  // namespace
}  // namespace redis_fixture
}  // namespace docket::conformance
