// The NATS JetStream transport under the transport conformance suite, on the real server
// at DOCKET_TEST_NATS_URL (scripts/nats-start.sh): each test gets a stream of its own,
// taking the subjects "<prefix>.>", and deletes it (with its consumers) afterwards. The
// stream's max_msg_size is 4 KiB, so that the oversized message is refused by it; a
// subject under another prefix is taken by no stream, so publishes there are
// unroutable. The server can be restarted (restarts_broker) when it runs on this
// machine (nats_local_server.h: SIGTERM and the same command line again, its JetStream
// store kept).
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "docket/nats/transport.h"
#include "support/unique_name.h"
#include "transport_fixture.h"
#include "transports/nats/nats_connection.h"
#include "transports/nats/nats_local_server.h"
#include "transports/nats/nats_topology.h"

namespace docket::conformance {
namespace nats_fixture {
namespace {

constexpr std::size_t kNatsMaxMessageBytes = 4096;

std::string server_url() {
  const char* url = std::getenv("DOCKET_TEST_NATS_URL");
  if (url == nullptr || *url == '\0') {
    throw std::runtime_error(
        "DOCKET_TEST_NATS_URL is not set, and the nats transport conformance cases need a real "
        "NATS server with JetStream. Start the throwaway one and export its URL:\n"
        "  export DOCKET_TEST_NATS_URL=$(scripts/nats-start.sh)");
  }
  return url;
}

std::string unique_suffix() {
  return test_support::unique_suffix();
}

class NatsFixture final : public TransportFixture {
 public:
  NatsFixture()
      : base_url_(server_url()),
        suffix_(unique_suffix()),
        url_(base_url_ + (base_url_.find('?') == std::string::npos ? "?" : "&") +
             "stream=conformance-" + suffix_ + "&subject=conf-" + suffix_ +
             ".>&max_msg_size=" + std::to_string(kNatsMaxMessageBytes)),
        transport_(url_) {}

  ~NatsFixture() override {
    try {
      const nats::detail::Connection admin(nats::detail::parse_server_url(url_));
      nats::detail::delete_stream(admin);
    } catch (const std::exception& error) {
      ADD_FAILURE() << "deleting the test's NATS stream: " << error.what();
    }
  }

  Transport& transport() override { return transport_; }
  std::string fresh_destination() override {
    return "conf-" + suffix_ + ".dest-" + std::to_string(++next_);
  }
  std::string unroutable_destination() override { return "unbound-" + suffix_ + ".orders"; }
  std::size_t oversized_payload_bytes() override { return kNatsMaxMessageBytes + 1; }

  // The server at DOCKET_TEST_NATS_URL, restarted in place: the broker-restart tests run
  // alone (RUN_SERIAL, CMakeLists.txt), since every other test loses its connections too.
  void restart_broker() override {
    nats::detail::LocalServer::find(nats::detail::parse_server_url(url_)).restart();
  }

 private:
  std::string base_url_;
  std::string suffix_;
  std::string url_;
  nats::NatsTransport transport_;
  int next_ = 0;
};

const TransportFixtureRegistrar kNats{{.name = "nats",
                                       .make = [] { return std::make_unique<NatsFixture>(); },
                                       .restarts_broker = true}};

}  // namespace
}  // namespace nats_fixture
}  // namespace docket::conformance
