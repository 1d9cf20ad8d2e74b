#include "transports/rabbitmq/rabbitmq_publishing_connection.h"

#include <utility>

namespace docket::rabbitmq::detail {

PublishingConnection::PublishingConnection(BrokerUrl url)
    : url_(std::move(url)), broker_(printable(url_)) {}

void PublishingConnection::connect() {
  if (connection_ && connection_->alive())
    return;
  publisher_.reset();
  connection_.reset();
  auto connection = std::make_unique<Connection>(url_);
  {
    // Declared on its own channel: a refusal closes that channel, not the publisher's.
    Channel channel(*connection);
    amqp_exchange_declare(channel.state(), channel.id(), as_bytes(url_.exchange),
                          amqp_cstring_bytes("topic"), 0, 1, 0, 0, amqp_empty_table);
    channel.check(amqp_get_rpc_reply(channel.state()),
                  "declaring topic exchange '" + url_.exchange + "' in vhost '" + url_.vhost + "'");
  }
  publisher_ = std::make_unique<Publisher>(*connection);
  connection_ = std::move(connection);
}

std::vector<PublishResult> PublishingConnection::publish(std::span<const OutgoingMessage> batch) {
  std::lock_guard lock(mutex_);
  connect();
  return publisher_->publish(batch, url_.connect_timeout);
}

void PublishingConnection::declare(const Topology& topology) {
  std::lock_guard lock(mutex_);
  connect();
  declare_topology(*connection_, topology);
}

}  // namespace docket::rabbitmq::detail
