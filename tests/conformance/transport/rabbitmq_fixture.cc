// The RabbitMQ transport under the transport conformance suite, on the real broker at
// DOCKET_TEST_RABBITMQ_URL (scripts/rabbitmq-start.sh): each test gets an exchange of
// its own and deletes it and its queues afterwards. The URL's max_message_size is 4 KiB,
// so that the oversized message is refused before it is sent.
//
// A group receives only what is published after its queue exists (AMQP), and the suite
// publishes before it subscribes: fresh_destination() declares the queues of the groups
// the suite's tests subscribe (kGroups on the destination, kDeadLetterGroups on its
// dead-letter destination), as an application declares its groups before its relay
// publishes. The broker can be restarted (restarts_broker), when it runs on this
// machine.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "docket/rabbitmq/transport.h"
#include "support/unique_name.h"
#include "transport_fixture.h"
#include "transports/rabbitmq/rabbitmq_connection.h"
#include "transports/rabbitmq/rabbitmq_local_broker.h"

namespace docket::conformance {
namespace rabbitmq_fixture {
namespace {

constexpr std::size_t kRabbitMqMaxMessageBytes = 4096;
// transport_suite_test.cc and consumer_runner_test.cc subscribe these ("": the default).
const std::vector<std::string> kGroups = {"conformance", "billing"};
const std::vector<std::string> kDeadLetterGroups = {"operators", ""};

std::string broker_url() {
  const char* url = std::getenv("DOCKET_TEST_RABBITMQ_URL");
  if (url == nullptr || *url == '\0') {
    throw std::runtime_error(
        "DOCKET_TEST_RABBITMQ_URL is not set, and the rabbitmq transport conformance cases "
        "need a real RabbitMQ broker. Start the throwaway one and export its URL:\n"
        "  export DOCKET_TEST_RABBITMQ_URL=$(scripts/rabbitmq-start.sh)");
  }
  return url;
}

std::string unique_exchange() {
  return "docket-conformance." + test_support::unique_suffix();
}

class RabbitMqFixture final : public TransportFixture {
 public:
  RabbitMqFixture()
      : base_url_(broker_url()),
        exchange_(unique_exchange()),
        transport_(base_url_ + (base_url_.find('?') == std::string::npos ? "?" : "&") +
                   "exchange=" + exchange_ +
                   "&max_message_size=" + std::to_string(kRabbitMqMaxMessageBytes)) {}

  ~RabbitMqFixture() override {
    try {
      delete_topology();
    } catch (const std::exception& error) {
      ADD_FAILURE() << "cleaning up the test's RabbitMQ topology: " << error.what();
    }
  }

  // Deletes what the test declared, on a connection of its own (the test may have left
  // the transport's broken).
  void delete_topology() {
    rabbitmq::detail::Connection admin(rabbitmq::detail::parse_broker_url(base_url_));
    rabbitmq::detail::Channel channel(admin);
    for (const std::string& queue : queues_) {
      amqp_queue_delete(channel.state(), channel.id(), rabbitmq::detail::as_bytes(queue), 0, 0);
      channel.check(amqp_get_rpc_reply(channel.state()), "deleting queue " + queue);
    }
    amqp_exchange_delete(channel.state(), channel.id(), rabbitmq::detail::as_bytes(exchange_), 0);
    channel.check(amqp_get_rpc_reply(channel.state()), "deleting exchange " + exchange_);
  }

  Transport& transport() override { return transport_; }

  std::string fresh_destination() override {
    const std::string destination = "dest-" + std::to_string(++next_);
    for (const std::string& group : kGroups)
      declare(destination, group);
    for (const std::string& group : kDeadLetterGroups)
      declare(transport_.dead_letter_destination(destination), group);
    return destination;
  }
  std::string unroutable_destination() override { return "unbound"; }
  std::size_t oversized_payload_bytes() override { return kRabbitMqMaxMessageBytes + 1; }

  // The broker at DOCKET_TEST_RABBITMQ_URL, restarted in place (rabbitmq_local_broker.h):
  // the broker-restart tests run alone (RUN_SERIAL, CMakeLists.txt), since every other
  // test on that broker loses its connections too.
  void restart_broker() override {
    rabbitmq::detail::LocalBroker::find(rabbitmq::detail::parse_broker_url(base_url_)).restart();
  }

 private:
  void declare(const std::string& destination, const std::string& group) {
    transport_.declare_group(destination, group);
    queues_.push_back(transport_.queue_name(destination, group));
  }

  std::string base_url_;
  std::string exchange_;
  rabbitmq::RabbitMqTransport transport_;
  std::vector<std::string> queues_;
  int next_ = 0;
};

const TransportFixtureRegistrar kRabbitMq{
    {.name = "rabbitmq",
     .make = [] { return std::make_unique<RabbitMqFixture>(); },
     .restarts_broker = true}};

}  // namespace
}  // namespace rabbitmq_fixture
}  // namespace docket::conformance
