#include "transports/rabbitmq/tests/rabbitmq_broker_fixture.h"

#include <unistd.h>

#include <cstdlib>
#include <stdexcept>

namespace docket::rabbitmq::detail::test {

BrokerUrl test_broker_url() {
  const char* url = std::getenv("DOCKET_TEST_RABBITMQ_URL");
  if (url == nullptr || *url == '\0') {
    throw std::runtime_error(
        "DOCKET_TEST_RABBITMQ_URL is not set, and this test needs a real RabbitMQ broker. "
        "Start the throwaway one and export its URL:\n"
        "  export DOCKET_TEST_RABBITMQ_URL=$(scripts/rabbitmq-start.sh)\n"
        "(scripts/rabbitmq-stop.sh stops it; scripts/test.sh does both by itself)");
  }
  return parse_broker_url(url);
}

void BrokerTest::SetUp() {
  url_ = test_broker_url();
  topology_.exchange = entity_name("exchange");
  topology_.queue = entity_name("queue");
  topology_.routing_key = "orders.#";
  topology_.dead_letter_exchange = entity_name("dlx");
  topology_.dead_letter_queue = entity_name("dlq");
  admin_ = std::make_unique<Connection>(url_);
  declare_topology(*admin_, topology_);
}

void BrokerTest::TearDown() {
  if (!admin_)
    return;
  // A test may have left the admin connection dead (it breaks connections on purpose).
  Connection cleanup(url_);
  Channel channel(cleanup);
  for (const std::string& queue : {topology_.queue, topology_.dead_letter_queue}) {
    amqp_queue_delete(channel.state(), channel.id(), as_bytes(queue), 0, 0);
    channel.check(amqp_get_rpc_reply(channel.state()), "deleting queue " + queue);
  }
  for (const std::string& exchange : {topology_.exchange, topology_.dead_letter_exchange}) {
    amqp_exchange_delete(channel.state(), channel.id(), as_bytes(exchange), 0);
    channel.check(amqp_get_rpc_reply(channel.state()), "deleting exchange " + exchange);
  }
}

std::string BrokerTest::entity_name(std::string_view what) const {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return "docket-test." + std::string(info->test_suite_name()) + "." + info->name() + "." +
         std::string(what) + "." + std::to_string(::getpid());
}

OutgoingMessage BrokerTest::message(std::string_view id, std::string_view routing_key) const {
  OutgoingMessage out;
  out.exchange = topology_.exchange;
  out.routing_key = std::string(routing_key);
  out.message_id = std::string(id);
  out.body = "body of " + std::string(id);
  return out;
}

}  // namespace docket::rabbitmq::detail::test
