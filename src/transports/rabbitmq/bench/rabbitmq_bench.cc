// The RabbitMQ transport's bench part (bench/bench_transport.h): the raw publisher
// (rabbitmq_raw_publisher.h) and the run's queues, named as RabbitMqTransport names a
// consumer group's queue ("<exchange>.<destination>.<group>"), each inspected, purged or
// deleted on a connection of its own.
#include <memory>
#include <string>

#include "bench_transport.h"
#include "docket/rabbitmq/transport.h"
#include "rabbitmq_raw_publisher.h"
#include "transports/rabbitmq/rabbitmq_connection.h"
#include "transports/rabbitmq/rabbitmq_url.h"

namespace docket::rabbitmq {
namespace {

// A connection and a channel for one queue operation on the queue of `group` for
// `destination`.
class QueueOperation {
 public:
  QueueOperation(std::string_view url, std::string_view destination, std::string_view group)
      : queue_(RabbitMqTransport(url).queue_name(destination, group)),
        connection_(detail::parse_broker_url(url)),
        channel_(connection_) {}

  amqp_connection_state_t state() const noexcept { return channel_.state(); }
  amqp_channel_t id() const noexcept { return channel_.id(); }
  amqp_bytes_t queue() const noexcept { return detail::as_bytes(queue_); }
  void check(std::string_view doing) {
    channel_.check(amqp_get_rpc_reply(state()), std::string(doing) + " queue '" + queue_ + "'");
  }

 private:
  std::string queue_;
  detail::Connection connection_;
  detail::Channel channel_;
};

class RabbitMqBench final : public bench::TransportBench {
 public:
  std::string_view example_url() const noexcept override {
    return "amqp://user:password@127.0.0.1:5672/vhost?exchange=docket-bench";
  }

  std::unique_ptr<bench::RawPublishSession> raw_session(
      std::string_view url, std::span<const TransportMessage> messages) const override {
    return std::make_unique<detail::RawPublisher>(url, messages);
  }

  std::uint64_t queued(std::string_view url, std::string_view destination,
                       std::string_view group) const override {
    QueueOperation operation(url, destination, group);
    const amqp_queue_declare_ok_t* ok =
        amqp_queue_declare(operation.state(), operation.id(), operation.queue(), /*passive=*/1, 0,
                           0, 0, amqp_empty_table);
    operation.check("counting the messages of");
    return ok->message_count;
  }

  void purge(std::string_view url, std::string_view destination,
             std::string_view group) const override {
    QueueOperation operation(url, destination, group);
    amqp_queue_purge(operation.state(), operation.id(), operation.queue());
    operation.check("purging");
  }

  void remove(std::string_view url, std::string_view destination,
              std::string_view group) const override {
    QueueOperation operation(url, destination, group);
    amqp_queue_delete(operation.state(), operation.id(), operation.queue(), /*if_unused=*/0,
                      /*if_empty=*/0);
    operation.check("deleting");
  }
};

}  // namespace

const bench::TransportBench& bench_transport() {
  static const RabbitMqBench bench;
  return bench;
}

}  // namespace docket::rabbitmq
