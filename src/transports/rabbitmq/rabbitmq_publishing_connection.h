// The RabbitMQ transport's publishing side: one connection with one confirm-mode
// Publisher, shared by every thread that publishes through the transport (relays) and
// by its subscriptions' dead-lettering, and the declarations of the topology.
//
// Invariants: the connection is opened on first use and opened again after it was
// lost; the exchange is declared on every connection it opens (idempotent), or, for a
// user without configure permission, checked to exist, before the first message is
// published on it.
//
// Thread-safety: every member function may be called from any thread; calls are
// serialised (rabbitmq-c confines a connection to one thread at a time).
#ifndef DOCKET_TRANSPORTS_RABBITMQ_RABBITMQ_PUBLISHING_CONNECTION_H_
#define DOCKET_TRANSPORTS_RABBITMQ_RABBITMQ_PUBLISHING_CONNECTION_H_

#include <chrono>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "transports/rabbitmq/rabbitmq_connection.h"
#include "transports/rabbitmq/rabbitmq_publisher.h"
#include "transports/rabbitmq/rabbitmq_topology.h"
#include "transports/rabbitmq/rabbitmq_url.h"

namespace docket::rabbitmq::detail {

class PublishingConnection {
 public:
  explicit PublishingConnection(BrokerUrl url);

  const BrokerUrl& url() const noexcept { return url_; }
  const std::string& broker() const noexcept { return broker_; }

  // Publisher::publish on the shared connection, (re)connecting first. Throws
  // BrokerError when no connection can be opened or the exchange cannot be declared.
  std::vector<PublishResult> publish(std::span<const OutgoingMessage> batch);

  // declare_topology on the shared connection; for a user without configure permission,
  // check_topology instead (its owner declared it). Throws BrokerError: access_refused
  // naming the queue when it does not exist and the user may not declare it.
  void declare(const Topology& topology);

 private:
  // Holding mutex_: a live connection with the exchange declared and a publisher.
  void connect();
  // Declares the URL's exchange on `connection`; for a user who may not declare (no
  // configure permission), checks passively that it exists. Throws BrokerError:
  // access_refused naming the exchange and the user when it is missing and the user
  // may not declare it.
  void declare_exchange(Connection& connection) const;

  BrokerUrl url_;
  std::string broker_;
  std::mutex mutex_;
  std::unique_ptr<Connection> connection_;
  std::unique_ptr<Publisher> publisher_;
};

}  // namespace docket::rabbitmq::detail

#endif  // DOCKET_TRANSPORTS_RABBITMQ_RABBITMQ_PUBLISHING_CONNECTION_H_
