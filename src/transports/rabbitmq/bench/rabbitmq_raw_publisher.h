// The raw limit of `docket bench relay` on RabbitMQ: the run's messages published with
// publisher confirms through rabbitmq-c directly, with no docket code in the loop.
//
// Set-up (not measured) uses the transport's client layer: the connection and login
// (rabbitmq_connection.h, so that a broker down or a wrong password is the error docket
// gives), one channel in confirm mode, and each message converted to what docket's
// transport sends (rabbitmq_wire.h: the same routing key, message id, content type,
// CloudEvents headers and body). The measured loop is plain rabbitmq-c: per batch,
// amqp_basic_publish of each message (mandatory, persistent, the same properties and a
// headers table of long strings, built per message as a client builds it), then one wait
// for the batch's confirms (basic.ack, possibly `multiple`).
//
// Invariants: delivery tags count the messages published on the channel from 1; a
// nack, a return (unroutable) or a channel/connection close ends the session with an
// InfrastructureError naming the broker and the message.
//
// Thread-safety: none; one thread at a time.
#ifndef DOCKET_TRANSPORTS_RABBITMQ_BENCH_RABBITMQ_RAW_PUBLISHER_H_
#define DOCKET_TRANSPORTS_RABBITMQ_BENCH_RABBITMQ_RAW_PUBLISHER_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "bench_transport.h"
#include "transports/rabbitmq/rabbitmq_connection.h"
#include "transports/rabbitmq/rabbitmq_message.h"

namespace docket::rabbitmq::detail {

class RawPublisher final : public bench::RawPublishSession {
 public:
  // Connects and logs in as `url` says and opens a confirm-mode channel. Throws
  // ConfigurationError for a URL that does not parse or names no exchange, BrokerError
  // (an InfrastructureError) when the broker is unreachable or refuses the login.
  RawPublisher(std::string_view url, std::span<const TransportMessage> messages);

  void publish(bench::ItemRange items, std::size_t batch) override;
  std::uint64_t confirm_waits() const noexcept override { return confirm_waits_; }
  std::uint64_t confirmed() const noexcept override { return confirmed_; }

 private:
  // Sends messages [first, first + count) and returns once the broker confirmed them all.
  void publish_batch(std::size_t first, std::size_t count);
  // Reads frames until the `count` tags from `first_tag` are all acknowledged.
  void await_confirms(std::uint64_t first_tag, std::size_t count);
  [[noreturn]] void fail(const std::string& problem) const;

  Connection connection_;
  std::optional<Channel> channel_;
  std::vector<OutgoingMessage> messages_;
  std::uint64_t next_tag_ = 1;
  std::uint64_t confirm_waits_ = 0;
  std::uint64_t confirmed_ = 0;
  std::vector<amqp_table_entry_t> entries_;  // one message's headers, reused
  std::vector<bool> acked_;                  // the batch in flight, by tag - first tag
};

}  // namespace docket::rabbitmq::detail

#endif  // DOCKET_TRANSPORTS_RABBITMQ_BENCH_RABBITMQ_RAW_PUBLISHER_H_
