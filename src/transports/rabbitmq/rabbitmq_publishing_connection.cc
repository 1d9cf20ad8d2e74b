#include "transports/rabbitmq/rabbitmq_publishing_connection.h"

#include <utility>

namespace docket::rabbitmq::detail {

PublishingConnection::PublishingConnection(BrokerUrl url)
    : url_(std::move(url)), broker_(printable(url_)) {}

void PublishingConnection::declare_exchange(Connection& connection) const {
  const std::string exchange =
      "topic exchange '" + url_.exchange + "' in vhost '" + url_.vhost + "'";
  // Each step on a channel of its own: a refusal closes that channel, not the publisher's.
  try {
    Channel channel(connection);
    amqp_exchange_declare(channel.state(), channel.id(), as_bytes(url_.exchange),
                          amqp_cstring_bytes("topic"), 0, 1, 0, 0, amqp_empty_table);
    channel.check(amqp_get_rpc_reply(channel.state()), "declaring " + exchange);
    return;
  } catch (const BrokerError& error) {
    if (error.kind() != BrokerErrorKind::access_refused)
      throw;
  }
  // The user may not configure (declaring needs it even for an exchange that exists):
  // the exchange is its owner's to declare, and publishing needs only that it exists.
  Channel channel(connection);
  amqp_exchange_declare(channel.state(), channel.id(), as_bytes(url_.exchange),
                        amqp_cstring_bytes("topic"), 1, 1, 0, 0, amqp_empty_table);
  try {
    channel.check(amqp_get_rpc_reply(channel.state()), "checking (passively) " + exchange);
  } catch (const BrokerError& error) {
    if (error.kind() != BrokerErrorKind::not_found)
      throw;
    throw BrokerError(BrokerErrorKind::access_refused,
                      "RabbitMQ broker " + broker_ + ": the " + exchange +
                          " does not exist, and user '" + url_.user +
                          "' may not declare it (no configure permission): declare it as a "
                          "user who may, or grant '" +
                          url_.user + "' configure permission on it (rabbitmqctl set_permissions)");
  }
}

void PublishingConnection::connect() {
  if (connection_ && connection_->alive())
    return;
  publisher_.reset();
  connection_.reset();
  auto connection = std::make_unique<Connection>(url_);
  declare_exchange(*connection);
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
  try {
    declare_topology(*connection_, topology);
    return;
  } catch (const BrokerError& error) {
    if (error.kind() != BrokerErrorKind::access_refused)
      throw;
  }
  // The user may not configure: a group whose owner declared its queue (and bound it,
  // which AMQP offers no passive check of) serves as it is.
  try {
    check_topology(*connection_, topology);
  } catch (const BrokerError& error) {
    if (error.kind() != BrokerErrorKind::not_found)
      throw;
    throw BrokerError(BrokerErrorKind::access_refused,
                      "RabbitMQ broker " + broker_ + ": the queue '" + topology.queue +
                          "' in vhost '" + url_.vhost + "' does not exist, and user '" + url_.user +
                          "' may not declare it (no configure permission): declare and bind it "
                          "as a user who may (RabbitMqTransport::declare_group), or grant '" +
                          url_.user + "' configure permission on it (rabbitmqctl set_permissions)");
  }
}

}  // namespace docket::rabbitmq::detail
