// The RabbitMQ transport's part of `docket chaos` (tools/docket/chaos/chaos_transport.h):
// a broker restart is rabbitmq_local_broker.h's (the RabbitMQ application stopped and
// started again in its VM, durable queues and persistent messages recovered from disk);
// the run's group is its durable queue, deleted once the run is over.
#include "chaos_transport.h"
#include "docket/rabbitmq/transport.h"
#include "transports/rabbitmq/rabbitmq_connection.h"
#include "transports/rabbitmq/rabbitmq_local_broker.h"

namespace docket::rabbitmq {
namespace {

class RabbitMqRestarts final : public tool::BrokerRestarts {
 public:
  explicit RabbitMqRestarts(detail::LocalBroker broker) : broker_(std::move(broker)) {}
  void restart() override { broker_.restart(); }

 private:
  detail::LocalBroker broker_;
};

std::unique_ptr<tool::BrokerRestarts> broker_restarts(std::string_view url) {
  return std::make_unique<RabbitMqRestarts>(
      detail::LocalBroker::find(detail::parse_broker_url(url)));
}

void remove_group(std::string_view url, std::string_view destination, std::string_view group) {
  const std::string queue = RabbitMqTransport(url).queue_name(destination, group);
  detail::Connection connection(detail::parse_broker_url(url));
  detail::Channel channel(connection);
  amqp_queue_delete(channel.state(), channel.id(), detail::as_bytes(queue), 0, 0);
  channel.check(amqp_get_rpc_reply(channel.state()), "deleting queue " + queue);
}

}  // namespace

const tool::ChaosTransport& chaos_transport() {
  static const tool::ChaosTransport transport{
      .broker_restarts = &broker_restarts,
      .remove_group = &remove_group,
      .broker_name = "RabbitMQ",
      .restart_effect =
          "rabbitmqctl stop_app and start_app: every connection closed, durable queues and "
          "persistent messages recovered from disk"};
  return transport;
}

}  // namespace docket::rabbitmq
