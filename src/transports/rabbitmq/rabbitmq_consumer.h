// Consuming a queue with manual acknowledgements and a prefetch bound: the broker has
// at most `prefetch` unacknowledged deliveries out to this consumer; each is
// acknowledged (done), or negatively acknowledged with requeue (delivered again, with
// the redelivered flag) or without (to the queue's dead-letter exchange, or dropped
// when it has none). What is unacknowledged when the channel or connection closes is
// redelivered by the broker.
//
// Thread-safety: none; one thread at a time, on a connection no one else uses.
#ifndef DOCKET_TRANSPORTS_RABBITMQ_RABBITMQ_CONSUMER_H_
#define DOCKET_TRANSPORTS_RABBITMQ_RABBITMQ_CONSUMER_H_

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "transports/rabbitmq/rabbitmq_connection.h"
#include "transports/rabbitmq/rabbitmq_message.h"

namespace docket::rabbitmq::detail {

class Consumer {
 public:
  // Opens a channel, sets basic.qos(prefetch) (1 to 65535) and starts consuming
  // `queue`. Throws BrokerError (not_found for a missing queue), ConnectionLost.
  Consumer(Connection& connection, std::string_view queue, std::uint16_t prefetch);

  // The next delivery, or nothing when none came within `timeout`. Throws
  // ConnectionLost when the connection is lost, BrokerError when the broker closed the
  // channel or cancelled the consumer (the queue was deleted).
  std::optional<Delivery> next(std::chrono::milliseconds timeout);

  // Acknowledges a delivery: the broker forgets it.
  void ack(std::uint64_t delivery_tag);
  // Negative acknowledgement: requeue=true delivers it again; requeue=false
  // dead-letters it (reason "rejected").
  void nack(std::uint64_t delivery_tag, bool requeue);

  const std::string& queue() const noexcept { return queue_; }

 private:
  void check_status(int status, std::string_view doing);

  Connection* connection_;
  std::string queue_;
  Channel channel_;
};

}  // namespace docket::rabbitmq::detail

#endif  // DOCKET_TRANSPORTS_RABBITMQ_RABBITMQ_CONSUMER_H_
