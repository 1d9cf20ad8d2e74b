// The durable topology a docket destination needs on RabbitMQ: a topic exchange, a
// queue bound to it with a routing key, and a dead-letter exchange and queue where the
// queue's rejected (requeue=false) messages go. Either declared (idempotent: declaring
// what exists with the same arguments changes nothing) or, when the user owns the
// topology and docket may not configure it, checked passively.
//
// Thread-safety: none; uses the connection it is given.
#ifndef DOCKET_TRANSPORTS_RABBITMQ_RABBITMQ_TOPOLOGY_H_
#define DOCKET_TRANSPORTS_RABBITMQ_RABBITMQ_TOPOLOGY_H_

#include <string>

#include "transports/rabbitmq/rabbitmq_connection.h"

namespace docket::rabbitmq::detail {

struct Topology {
  std::string exchange;              // durable topic exchange messages are published to
  std::string queue;                 // durable queue consumers read
  std::string routing_key = "#";     // the queue's binding to the exchange
  std::string dead_letter_exchange;  // durable fanout exchange; empty: no dead-lettering
  std::string dead_letter_queue;     // durable queue bound to it (required with it)
  bool quorum_queue = false;         // a quorum queue (counts deliveries) or a classic one
};

// Declares every entity of `topology` (each on a channel of its own, closed after).
// Throws BrokerError: access_refused naming the entity when the user may not declare it
// (then declare it as a user who may and use check_topology), precondition_failed when
// it exists with other arguments, ConnectionLost.
void declare_topology(Connection& connection, const Topology& topology);

// Checks passively that the exchanges and queues of `topology` exist (bindings cannot
// be checked passively in AMQP 0-9-1). Throws BrokerError not_found naming the first
// missing entity, ConnectionLost.
void check_topology(Connection& connection, const Topology& topology);

}  // namespace docket::rabbitmq::detail

#endif  // DOCKET_TRANSPORTS_RABBITMQ_RABBITMQ_TOPOLOGY_H_
