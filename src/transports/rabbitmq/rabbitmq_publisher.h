// Publishing batches with publisher confirms and `mandatory`: every message of a batch
// gets a result, so that a caller marks exactly the confirmed ones published.
//
// Each message is sent persistent (delivery mode 2) with its message id and headers,
// `mandatory` set: a message no queue is bound for comes back (basic.return) and is
// `returned`, never a silent loss. The broker confirms (basic.ack) or refuses
// (basic.nack) each message; a return precedes the confirm of the same message, and is
// matched to it by message id. A message that cannot be sent (over the broker's
// max_message_size, properties larger than a frame, a header name over 255 bytes) is
// `refused` before anything of it is sent; the rest of the batch is published.
//
// Invariants: the publisher owns one channel in confirm mode; its delivery tags count
// the messages sent on it from 1. A channel the broker closed (a publish to a missing
// exchange) is replaced by a new one at the next batch.
//
// Thread-safety: none; one thread at a time, on a connection no one else uses.
#ifndef DOCKET_TRANSPORTS_RABBITMQ_RABBITMQ_PUBLISHER_H_
#define DOCKET_TRANSPORTS_RABBITMQ_RABBITMQ_PUBLISHER_H_

#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "transports/rabbitmq/rabbitmq_connection.h"
#include "transports/rabbitmq/rabbitmq_message.h"

namespace docket::rabbitmq::detail {

enum class PublishStatus {
  confirmed,        // the broker took responsibility for it (routed, persisted)
  nacked,           // the broker refused it (basic.nack): publish it again later
  returned,         // unroutable: no queue bound for its routing key (detail: reply text)
  refused,          // not sent: the message itself is unacceptable (detail says why)
  failed,           // the broker closed the channel (detail: its reply, e.g. no exchange)
  connection_lost,  // unknown outcome: the connection failed; reconnect and publish again
};

const char* to_string(PublishStatus status) noexcept;

struct PublishResult {
  PublishStatus status = PublishStatus::connection_lost;
  std::string detail;  // empty when confirmed
};

class Publisher {
 public:
  // Throws BrokerError/ConnectionLost when the channel or confirm mode cannot be opened.
  explicit Publisher(Connection& connection);

  // Publishes `batch` and waits, at most `confirm_timeout`, for every sent message's
  // outcome; results[i] is batch[i]'s. Throws ConnectionLost only when the connection
  // was already dead (nothing was sent); a connection lost during the batch is the
  // result of every message not yet confirmed. A timeout marks the unconfirmed
  // messages connection_lost and the connection dead (their outcome is unknown).
  std::vector<PublishResult> publish(std::span<const OutgoingMessage> batch,
                                     std::chrono::milliseconds confirm_timeout);

 private:
  void open_channel();
  // Why `message` may not be sent, or nothing.
  std::optional<std::string> refusal(const OutgoingMessage& message) const;

  Connection* connection_;
  std::optional<Channel> channel_;
  std::uint64_t next_delivery_tag_ = 1;
};

}  // namespace docket::rabbitmq::detail

#endif  // DOCKET_TRANSPORTS_RABBITMQ_RABBITMQ_PUBLISHER_H_
