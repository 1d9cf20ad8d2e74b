// The RabbitMQ transport (docket/transports/transport.h, docket/spi/transport.h):
//
//   #include "docket/rabbitmq/transport.h"
//   docket::rabbitmq::RabbitMqTransport transport("amqp://user:pw@host/vhost?exchange=orders");
//
// or, naming no broker in the code, docket::open_transport(url)
// (docket/transports/open_transport.h). The URL's form and options: docs/rabbitmq.md.
//
// Every message is published to the URL's exchange (a durable topic exchange, declared
// on first use) with its destination as the routing key, persistent, with publisher
// confirms and `mandatory` (rabbitmq_publisher.h), in CloudEvents binary mode
// (rabbitmq_wire.h). A consumer group of a destination is a durable classic queue,
// "<exchange>.<destination>.<group>" (group "default" when none is given), bound to the exchange
// with the destination as its binding key and declared by subscribe() or declare_group(). As on any
// AMQP broker, a group receives only what was published after its queue exists: declare the groups
// before publishing (a publish no queue is bound for is kUnroutable, never lost).
//
// Invariants: a destination is a routing key without the topic wildcards '*' and '#'
// (ConfigurationError otherwise); its dead-letter destination is
// "<destination>.dead-letter" on the same exchange.
//
// Thread-safety: publish_batch() from any number of threads (serialised on one
// publishing connection); subscribe() from any thread, each subscription on its own
// connection. A subscription must not outlive its transport's process, but may outlive
// the transport object (it shares the publishing connection).
#ifndef DOCKET_RABBITMQ_TRANSPORT_H_
#define DOCKET_RABBITMQ_TRANSPORT_H_

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "docket/transports/transport.h"

namespace docket::rabbitmq {

class RabbitMqTransport final : public Transport {
 public:
  // Parses `url` (rabbitmq_url.h). Throws ConfigurationError naming what is wrong when
  // it does not parse or names no exchange. Connects on first use, not here.
  explicit RabbitMqTransport(std::string_view url);
  ~RabbitMqTransport() override;

  // Declares the queue of `group` for `destination` and binds it, so that what
  // is published to `destination` from now on waits there for the group. Idempotent.
  // Throws ConfigurationError for an empty or wildcard destination or group,
  // BrokerError (an InfrastructureError) when the broker refuses or cannot be reached.
  void declare_group(std::string_view destination, std::string_view group);

  // The queue of `group` for `destination` ("<exchange>.<destination>.<group>").
  std::string queue_name(std::string_view destination, std::string_view group) const;
  const std::string& exchange() const noexcept;

  // "RabbitMQ broker amqp://user:***@host:port/vhost?exchange=...".
  std::string describe() const override;

 protected:
  std::vector<PublishResult> do_publish_batch(std::span<const TransportMessage> batch) override;
  std::unique_ptr<spi::SubscriptionChannel> do_subscribe(
      const SubscriptionOptions& options) override;

 private:
  struct State;  // the publishing connection, shared with the subscriptions
  std::unique_ptr<State> state_;
};

}  // namespace docket::rabbitmq

#endif  // DOCKET_RABBITMQ_TRANSPORT_H_
